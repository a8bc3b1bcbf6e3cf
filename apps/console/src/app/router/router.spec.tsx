import { act, type ComponentType } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../../request';
import { demoCaptcha, demoMenus, json, signedInApi, stubApi } from '../../test/fakeApi';
import { waitFor } from '../../test/render';
import { renderConsole } from '../../test/renderConsole';
import { featureRoutes } from './featureRoutes';
import { builtRoutes } from './buildRoutes';
import { knownRoutes, type FeatureRoutes } from './knownRoutes';
import { lazyPage } from './loadChunk';

let unmount: (() => void) | undefined;

afterEach(() => {
  unmount?.();
  unmount = undefined;
  sessionStore.clear();
  document.body.innerHTML = '';
});

async function at(path: string, options: Parameters<typeof renderConsole>[1] = {}) {
  const result = await renderConsole(path, options);
  unmount = result.unmount;
  return result;
}

const menuText = (container: HTMLElement) => container.querySelector('nav .ant-menu')?.textContent ?? '';

describe('router', () => {
  it('renders /home inside the main layout with the menu of the user', async () => {
    stubApi(signedInApi());
    const { container } = await at('/home');
    await waitFor(() => expect(container.textContent).toContain('Current time: '));
    expect(container.textContent).toMatch(/Current time: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    expect(container.textContent).toContain('Hello, Administrator');
    expect(menuText(container)).toContain('Home');
    expect(menuText(container)).toContain('Welcome');
    expect(menuText(container)).toContain('System');
  });

  it('renders /home in zh-CN', async () => {
    stubApi(signedInApi());
    const { container } = await at('/home', { locale: 'zh-CN' });
    await waitFor(() => expect(container.textContent).toContain('当前时间：'));
    expect(menuText(container)).toContain('首页');
  });

  it('follows a language switch at runtime', async () => {
    stubApi(signedInApi());
    const { container, i18n } = await at('/home');
    await waitFor(() => expect(container.textContent).toContain('Current time: '));
    await act(() => i18n.changeLanguage('zh-CN'));
    await waitFor(() => expect(container.textContent).toContain('当前时间：'));
    expect(menuText(container)).toContain('欢迎');
  });

  it('redirects / to /home', async () => {
    stubApi(signedInApi());
    const { router } = await at('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });

  it('sends a browser without a session to /login, without calling the API for the page', async () => {
    const { calls } = stubApi({ 'GET /auth/captcha': () => demoCaptcha() });
    const { router, container } = await at('/sys/log', { session: null });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.state).toEqual({ from: '/sys/log' });
    await waitFor(() => expect(container.querySelector('img[alt="Verification code image"]')).not.toBeNull());
    expect(container.querySelector('.ant-menu-root')).toBeNull();
    expect(calls.map((call) => call.path)).toEqual(['/auth/captcha']);
  });

  it('ends the session when loading the user answers 401', async () => {
    stubApi({
      'GET /authority/users/currentuser/info': () =>
        json({ code: 'AUTH_TOKEN_REVOKED', message: 'revoked' }, 401),
      'GET /authority/users/currentuser/menus': () =>
        json({ code: 'AUTH_TOKEN_REVOKED', message: 'revoked' }, 401),
      'GET /auth/captcha': () => demoCaptcha(),
    });
    const { router } = await at('/home');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(sessionStore.get()).toBeNull();
    await waitFor(() =>
      expect(document.body.textContent).toContain('login status expired, please log in again'),
    );
  });

  it.each(['/no/such/page', '/dingding/index', '/opemanage/stationMonitor/testReportDesc'])(
    '%s (unknown or reserved without a feature) is a 404',
    async (path) => {
      stubApi(signedInApi());
      const { container } = await at(path);
      await waitFor(() =>
        expect(container.textContent).toContain('Sorry, the page you visited does not exist.'),
      );
    },
  );

  it('guards a page by its permission (403 without it)', async () => {
    stubApi(signedInApi(['home', 'welcome'], demoMenus({ logs: false })));
    const { container } = await at('/sys/log');
    await waitFor(() =>
      expect(container.textContent).toContain('Sorry, you are not allowed to open this page.'),
    );
  });

  // The first load of the logs chunk (antd Table) is slow in jsdom.
  it('opens a guarded page with the permission', { timeout: 30_000 }, async () => {
    stubApi(signedInApi());
    const { container } = await at('/sys/log');
    await waitFor(() => expect(container.textContent).toContain('Operation log'), 25_000);
    expect(container.textContent).toContain('Login log');
    expect(container.textContent).toContain('Export');
  });

  it('offers a reload when a lazy route chunk fails to load', async () => {
    stubApi(signedInApi());
    const features: FeatureRoutes = {
      '/home': lazyPage<{ HomePage: ComponentType }, 'HomePage'>(
        'home',
        () =>
          Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/HomePage.js')),
        'HomePage',
      ),
    };
    const { container } = await at('/home', { features });
    await waitFor(() => expect(container.textContent).toContain('Chunk load error'));
    expect(container.textContent).toContain('Reload');
  });

  it('reserves every known route of the spec but builds only those with a feature', () => {
    expect(knownRoutes.map((route) => route.path)).toEqual(
      expect.arrayContaining([
        '/login',
        '/home',
        '/screen/index.html',
        '/station/ChargEquipManage/index',
        '/station/stationInfoManage/components/addForm',
        '/opemanage/stationMonitor/testReportDesc',
        '/dingding/index',
        '/dingding/stationList',
        '/dingding/simulationList',
        '/dingding/whiteList',
        '/iccard/group_basic_info',
        '/appManage/user_list_changes',
        '/appManage/userAccoutAmountRecordDetail',
        '/operation/orderManage/occupationOrder',
      ]),
    );
    const built = builtRoutes().map((route) => route.path);
    expect(built).toEqual(expect.arrayContaining(['/login', '/home', '/welcome', '/sys/log']));
    // Built = known and provided by a feature; a path reserved but without a feature stays out.
    expect(built).toEqual(knownRoutes.map((route) => route.path).filter((path) => path in featureRoutes));
    expect(built).not.toContain('/dingding/index');
    // And a feature cannot bring a path that is not a known route (the type forbids it; so does this).
    expect(Object.keys(featureRoutes).filter((path) => !built.includes(path))).toEqual([]);
  });
});
