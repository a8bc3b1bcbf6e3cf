import { ThunderboltOutlined } from '@ant-design/icons';
import { Layout, Menu, Spin, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate, useNavigation } from 'react-router-dom';
import type { KnownRoute } from '../router/knownRoutes';
import { LocaleMenu } from './LocaleMenu';

export type MainLayoutProps = {
  /** Built routes that have a menu entry, in table order. */
  menuRoutes: KnownRoute[];
};

/** Header (logo, title, language) with the side menu; pages render in the content area. */
export function MainLayout({ menuRoutes }: MainLayoutProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const { token } = theme.useToken();

  const items = menuRoutes.flatMap((route) =>
    route.menu ? [{ key: route.path, label: t(route.menu) }] : [],
  );

  return (
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
        <ThunderboltOutlined style={{ fontSize: 22, color: token.colorPrimary }} />
        <Typography.Title level={4} style={{ margin: 0, whiteSpace: 'nowrap' }}>
          {t('app.title')}
        </Typography.Title>
        <Typography.Text type="secondary" ellipsis>
          {t('app.subtitle')}
        </Typography.Text>
        <div style={{ marginLeft: 'auto' }}>
          <LocaleMenu />
        </div>
      </Layout.Header>
      <Layout>
        <Layout.Sider width={208} theme="light" breakpoint="lg" collapsedWidth={0}>
          <Menu mode="inline" items={items} selectedKeys={[pathname]} onClick={({ key }) => navigate(key)} />
        </Layout.Sider>
        <Layout.Content style={{ padding: 24 }}>
          <Spin spinning={navigation.state === 'loading'} delay={200}>
            <Outlet />
          </Spin>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
