import { AppstoreOutlined, HomeOutlined, SettingOutlined, SmileOutlined } from '@ant-design/icons';
import type { ResourceNode } from '@voltdepot/shared-contracts';
import { useWindowSize } from '@voltdepot/console-ui';
import { Layout, Menu, Spin, theme, type MenuProps } from 'antd';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate, useNavigation } from 'react-router-dom';
import { usePlatformSettings } from '../platform/PlatformSettingsContext';
import { NoticeProvider } from '../notice/NoticeProvider';
import { useCurrentUser } from '../session/CurrentUserContext';
import { DesktopIcon } from './DesktopIcon';
import { HeaderBrand } from './HeaderBrand';
import { HeaderNoticeSlot } from './HeaderNoticeSlot';
import { buildMenuEntries, groupKeysAbove, menuLabelKey, type MenuEntry } from './menuEntries';
import { UserMenu } from './UserMenu';

export type MainLayoutProps = {
  /** Paths of the pages this layout renders; menu resources pointing elsewhere are not shown. */
  menuPaths: readonly string[];
};

/** Below this window width the side menu collapses to icons. */
const NARROW_WIDTH = 992;

const topLevelIcons: Record<string, ReactNode> = {
  home: <HomeOutlined />,
  welcome: <SmileOutlined />,
  sys: <SettingOutlined />,
};

type MenuItems = Required<MenuProps>['items'];

function toMenuItems(entries: readonly MenuEntry[], depth = 0): MenuItems {
  return entries.map((entry) => ({
    key: entry.key,
    label: entry.label,
    icon: depth === 0 ? (topLevelIcons[entry.code] ?? <AppstoreOutlined />) : undefined,
    children: entry.children ? toMenuItems(entry.children, depth + 1) : undefined,
  }));
}

/** Header (brand, desktop icon, notification bell slot, user menu) and the side menu of the user's resources. */
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

  const label = useCallback(
    (node: ResourceNode) => {
      const key = menuLabelKey(node.code);
      return i18n.exists(key) ? String(t(key as never)) : node.name;
    },
    [i18n, t],
  );
  const entries = useMemo(
    () => buildMenuEntries(menus, (path) => menuPaths.includes(path), label),
    [menus, menuPaths, label],
  );
  const items = useMemo(() => toMenuItems(entries), [entries]);
  const [openKeys, setOpenKeys] = useState(() => groupKeysAbove(entries, pathname));

  return (
    <NoticeProvider>
      <Layout style={{ minHeight: '100vh' }}>
        <Layout.Header
          style={{
            display: 'flex',
            alignItems: 'center',
            gap: 12,
            paddingInline: 24,
            background: token.colorBgContainer,
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
          }}
        >
          <HeaderBrand />
          <div style={{ marginLeft: 'auto', display: 'flex', alignItems: 'center', gap: 4 }}>
            <DesktopIcon />
            {noticeIcon && <HeaderNoticeSlot />}
            <UserMenu />
          </div>
        </Layout.Header>
        <Layout>
          <Layout.Sider
            width={220}
            theme="light"
            collapsible
            collapsed={collapsed || width < NARROW_WIDTH}
            onCollapse={setCollapsed}
            style={{ borderRight: `1px solid ${token.colorBorderSecondary}` }}
          >
            <nav aria-label={t('menu.navigation')}>
              <Menu
                mode="inline"
                items={items}
                selectedKeys={[pathname]}
                openKeys={openKeys}
                onOpenChange={setOpenKeys}
                onClick={({ key }) => void navigate(key)}
                style={{ borderInlineEnd: 'none' }}
              />
            </nav>
          </Layout.Sider>
          <Layout.Content style={{ padding: 24 }}>
            <Spin spinning={navigation.state === 'loading'} delay={200}>
              <Outlet />
            </Spin>
          </Layout.Content>
        </Layout>
      </Layout>
    </NoticeProvider>
  );
}
