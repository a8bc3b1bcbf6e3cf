import { AppstoreOutlined, HomeOutlined, SettingOutlined, SmileOutlined } from '@ant-design/icons';
import { ProLayout, type MenuDataItem } from '@ant-design/pro-components';
import type { ResourceNode } from '@voltdepot/console-api-client';
import { useWindowSize } from '@voltdepot/console-ui';
import { Spin, theme } from 'antd';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate, useNavigation } from 'react-router-dom';
import { usePlatformSettings } from '../platform/PlatformSettingsContext';
import { NoticeProvider } from '../notice/NoticeProvider';
import { useCurrentUser } from '../session/CurrentUserContext';
import { DesktopIcon } from './DesktopIcon';
import { HeaderBrand } from './HeaderBrand';
import { HeaderNoticeSlot } from './HeaderNoticeSlot';
import {
  buildMenuEntries,
  groupKeysAbove,
  groupMenuPath,
  resourceLabel,
  type MenuEntry,
} from './menuEntries';
import { SecondFactorNotice } from './SecondFactorNotice';
import { UserMenu } from './UserMenu';

export type MainLayoutProps = {
  /** Paths of the pages this layout renders; menu resources pointing elsewhere are not shown. */
  menuPaths: readonly string[];
};

/** Below this window width the side menu collapses to icons. */
const NARROW_WIDTH = 992;
const SIDER_WIDTH = 220;
const SIDER_WIDTH_EN = 256;

const topLevelIcons: Record<string, ReactNode> = {
  home: <HomeOutlined />,
  welcome: <SmileOutlined />,
  sys: <SettingOutlined />,
};

/**
 * ProLayout's menu data. Groups have no page: they get their entry key (`group:<code>`) as key and a
 * path that no route can match (`groupMenuPath`), so only pages are ever selected.
 */
function toMenuData(entries: readonly MenuEntry[], depth = 0): MenuDataItem[] {
  return entries.map((entry) => ({
    key: entry.key,
    path: entry.path ?? groupMenuPath(entry.code),
    name: entry.label,
    icon: depth === 0 ? (topLevelIcons[entry.code] ?? <AppstoreOutlined />) : undefined,
    children: entry.children ? toMenuData(entry.children, depth + 1) : undefined,
  }));
}

/**
 * ProLayout (mix: header across, side menu below): brand by the logo-title setting, desktop icon,
 * notification bell slot and user menu in the header; the side menu of the user's resources.
 */
export function MainLayout({ menuPaths }: MainLayoutProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const { token } = theme.useToken();
  const { noticeIcon } = usePlatformSettings();
  const { menus } = useCurrentUser();
  const { width } = useWindowSize(); // throttled resize handler (100 ms)
  const [collapsed, setCollapsed] = useState(false);

  // t changes with the language, and so do the labels.
  const label = useCallback(
    (node: ResourceNode) => resourceLabel(node, { exists: (key) => i18n.exists(key), t }),
    [i18n, t],
  );
  const entries = useMemo(
    () => buildMenuEntries(menus, (path) => menuPaths.includes(path), label),
    [menus, menuPaths, label],
  );
  const route = useMemo(() => ({ path: '/', children: toMenuData(entries) }), [entries]);
  const [openKeys, setOpenKeys] = useState<string[]>(() => groupKeysAbove(entries, pathname));

  return (
    <NoticeProvider>
      <ProLayout
        layout="mix"
        splitMenus={false}
        fixedHeader
        fixSiderbar
        // English menu labels are longer: a wider menu keeps them from being cut off.
        siderWidth={i18n.language === 'en-US' ? SIDER_WIDTH_EN : SIDER_WIDTH}
        location={{ pathname }}
        route={route}
        collapsed={collapsed || width < NARROW_WIDTH}
        onCollapse={setCollapsed}
        breakpoint={false}
        // The brand (logo and title by the platform setting) replaces ProLayout's own title and logo.
        headerTitleRender={() => <HeaderBrand />}
        menuHeaderRender={false}
        actionsRender={() => [
          <DesktopIcon key="desktop" />,
          noticeIcon ? <HeaderNoticeSlot key="notice" /> : null,
          <UserMenu key="user" />,
        ]}
        openKeys={openKeys}
        onOpenChange={(keys) => setOpenKeys(keys === false ? [] : keys)}
        selectedKeys={[pathname]}
        menuItemRender={(item, dom) => (
          <span
            onClick={() => {
              if (item.path && item.path !== pathname) void navigate(item.path);
            }}
          >
            {dom}
          </span>
        )}
        menuContentRender={(_, dom) => <nav aria-label={t('menu.navigation')}>{dom}</nav>}
        token={{
          header: { colorBgHeader: token.colorBgContainer },
          sider: { colorMenuBackground: token.colorBgContainer },
          pageContainer: { paddingBlockPageContainerContent: 24, paddingInlinePageContainerContent: 24 },
        }}
        contentStyle={{ padding: 24 }}
      >
        <SecondFactorNotice />
        <Spin spinning={navigation.state === 'loading'} delay={200}>
          <Outlet />
        </Spin>
      </ProLayout>
    </NoticeProvider>
  );
}
