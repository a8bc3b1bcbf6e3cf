import { act, type ComponentType } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryRouter } from 'react-router-dom';
import { memoryStorage } from '../../test/memoryStorage';
import { render, waitFor, type Rendered } from '../../test/render';
import { App } from '../App';
import { createI18n } from '../providers/i18n';
import { createQueryClient } from '../providers/queryClient';
import { buildRoutes, builtRoutes } from './buildRoutes';
import { knownRoutes, type FeatureRoutes } from './knownRoutes';
import { lazyPage } from './loadChunk';

let rendered: Rendered | undefined;

afterEach(() => {
  rendered?.unmount();
  rendered = undefined;
});

async function renderAt(
  path: string,
  options: { features?: FeatureRoutes; locale?: 'zh-CN' | 'en-US' } = {},
) {
  const router = createMemoryRouter(buildRoutes(options.features), { initialEntries: [path] });
  const i18n = createI18n({ locale: options.locale ?? 'en-US', storage: memoryStorage() });
  rendered = await render(<App i18n={i18n} queryClient={createQueryClient()} router={router} />);
  return { router, container: rendered.container, i18n };
}

describe('router', () => {
  it('renders /home inside the main layout', async () => {
    const { container } = await renderAt('/home');
    await waitFor(() => expect(container.textContent).toContain('Current time: '));
    expect(container.textContent).toContain('Voltdepot');
    expect(container.querySelector('.ant-menu')?.textContent).toContain('Welcome');
    expect(container.textContent).toMatch(/Current time: \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
  });

  it('renders /home in zh-CN by default language', async () => {
    const { container } = await renderAt('/home', { locale: 'zh-CN' });
    await waitFor(() => expect(container.textContent).toContain('当前时间：'));
  });

  it('follows a language switch at runtime', async () => {
    const { container, i18n } = await renderAt('/home');
    await waitFor(() => expect(container.textContent).toContain('Current time: '));
    await act(() => i18n.changeLanguage('zh-CN'));
    await waitFor(() => expect(container.textContent).toContain('当前时间：'));
  });

  it('redirects / to /home', async () => {
    const { router } = await renderAt('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });

  it('renders the login placeholder without the main menu', async () => {
    const { container } = await renderAt('/login');
    await waitFor(() => expect(container.textContent).toContain('Sign-in comes with the Core API'));
    expect(container.querySelector('.ant-menu-root')).toBeNull();
  });

  it.each(['/no/such/page', '/dingding/index', '/station/ChargEquipManage/index'])(
    '%s (unknown or reserved without a feature) is a 404',
    async (path) => {
      const { container } = await renderAt(path);
      await waitFor(() =>
        expect(container.textContent).toContain('Sorry, the page you visited does not exist.'),
      );
    },
  );

  it('offers a reload when a lazy route chunk fails to load', async () => {
    const features: FeatureRoutes = {
      '/home': lazyPage<{ HomePage: ComponentType }, 'HomePage'>(
        'home',
        () =>
          Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/HomePage.js')),
        'HomePage',
      ),
    };
    const { container } = await renderAt('/home', { features });
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
    expect(builtRoutes().map((route) => route.path)).toEqual(['/login', '/home', '/welcome']);
  });
});
