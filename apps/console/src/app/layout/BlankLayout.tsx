import { Layout } from 'antd';
import { Outlet } from 'react-router-dom';
import { LocaleMenu } from './LocaleMenu';

/** Pages without the menu and header: sign-in, big screen, mobile pages. */
export function BlankLayout() {
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <div style={{ display: 'flex', justifyContent: 'flex-end', padding: '8px 16px' }}>
        <LocaleMenu />
      </div>
      <Layout.Content style={{ padding: 24 }}>
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}
