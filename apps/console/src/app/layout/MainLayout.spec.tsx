import { act, fireEvent } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../../request';
import {
  ADMIN_PERMISSIONS,
  demoCaptcha,
  demoMenus,
  demoUser,
  resource,
  signedInApi,
  stubApi,
} from '../../test/fakeApi';
import { waitFor } from '../../test/render';
import { renderConsole, type RenderConsoleOptions } from '../../test/renderConsole';

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
  sessionStore.clear();
  document.body.innerHTML = '';
});

async function home(
  options: RenderConsoleOptions & {
    permissions?: string[];
    secondFactorMissing?: boolean;
    menus?: ReturnType<typeof demoMenus>;
  } = {},
) {
  const permissions = options.permissions ?? ADMIN_PERMISSIONS;
  const api = stubApi(
    signedInApi(permissions, options.menus, {
      ...(options.secondFactorMissing === undefined
        ? {}
        : {
            'GET /authority/users/currentuser/info': () =>
              demoUser(permissions, { secondFactorMissing: options.secondFactorMissing }),
          }),
      'POST /auth/logout': () => new Response(null, { status: 204 }),
      'GET /auth/captcha': () => demoCaptcha(),
      'PUT /user/password': () => new Response(null, { status: 204 }),
    }),
  );
  const result = await renderConsole('/home', options);
  unmount = result.unmount;
  await waitFor(() => expect(result.container.textContent).toContain('Current time: '));
  return { ...result, ...api };
}

const q = (container: HTMLElement, selector: string) => container.querySelector(selector);

describe('header', () => {
  it.each([
    ['1', true, true],
    ['2', false, true],
    ['3', true, false],
  ] as const)('logo-title mode %s: logo %s, title %s', async (logoTitleMode, logo, title) => {
    const { container } = await home({ platform: { logoTitleMode, systemName: 'menu.system.name' } });
    expect(Boolean(q(container, '[data-testid="header-logo"]'))).toBe(logo);
    expect(Boolean(q(container, '[data-testid="header-title"]'))).toBe(title);
  });

  it("translates a system name containing 'menu', and follows the language", async () => {
    const { container, i18n } = await home({ platform: { systemName: 'menu.system.name' } });
    expect(q(container, '[data-testid="header-title"]')?.textContent).toBe('Voltdepot Charging Operations');
    await act(() => i18n.changeLanguage('zh-CN'));
    expect(q(container, '[data-testid="header-title"]')?.textContent).toBe('Voltdepot 充电运营平台');
    expect(document.title).toBe('Voltdepot 充电运营平台');
  });

  it('widens the side menu for the longer English labels', async () => {
    const { container, i18n } = await home();
    const width = () => (q(container, '.ant-layout-sider') as HTMLElement | null)?.style.width;
    expect(width()).toBe('256px');
    await act(() => i18n.changeLanguage('zh-CN'));
    expect(width()).toBe('220px');
  });

  it('shows a plain configured title as it is', async () => {
    const { container } = await home({ platform: { systemName: '', systemTitle: 'Depot Ops' } });
    expect(q(container, '[data-testid="header-title"]')?.textContent).toBe('Depot Ops');
  });

  it.each([
    [true, true],
    [false, false],
  ])('notice-icon setting %s -> bell slot shown %s', async (noticeIcon, shown) => {
    const { container } = await home({ platform: { noticeIcon } });
    expect(Boolean(q(container, '[data-testid="header-notice-slot"]'))).toBe(shown);
  });

  it('opens the big screen in a new tab with go_screen and the screen setting', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { container } = await home({ platform: { bigScreen: true } });
    const icon = q(container, 'button[aria-label="Big screen"]') as HTMLButtonElement;
    expect(icon).not.toBeNull();
    fireEvent.click(icon);
    fireEvent.click(icon); // guarded: one tab only
    expect(open).toHaveBeenCalledExactlyOnceWith('/screen/index.html', '_blank', 'noopener');
  });

  it('hides the big-screen icon without go_screen', async () => {
    const { container } = await home({
      platform: { bigScreen: true },
      permissions: ADMIN_PERMISSIONS.filter((code) => code !== 'go_screen'),
    });
    expect(q(container, 'button[aria-label="Big screen"]')).toBeNull();
  });

  it('goes to /home with several systems', async () => {
    const { container, router } = await home({
      platform: {
        systemList: [
          { name: 'A', url: 'https://a' },
          { name: 'B', url: 'https://b' },
        ],
      },
      permissions: ['home'],
    });
    await act(() => router.navigate('/welcome'));
    fireEvent.click(q(container, 'button[aria-label="Desktop"]') as HTMLButtonElement);
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
    expect(container.textContent).toContain('A');
  });

  it('switches the language with one click in the user menu (the languages are items, not a hover submenu)', async () => {
    const { container } = await home();
    fireEvent.click(q(container, '[data-testid="user-menu"]') as HTMLElement);
    await waitFor(() => expect(document.body.textContent).toContain('Log out'));
    const item = [...document.querySelectorAll('.ant-dropdown-menu-item')].find(
      (el) => el.textContent?.trim() === '简体中文',
    );
    expect(item).toBeDefined();
    fireEvent.click(item as HTMLElement);
    await waitFor(() => expect(document.documentElement.lang).toBe('zh-CN'));
    await waitFor(() => expect(container.textContent).toContain('当前时间：'));
  });

  it('logs out from the user menu: revokes the session, forgets it, goes to /login', async () => {
    const { container, router, calls } = await home();
    fireEvent.click(q(container, '[data-testid="user-menu"]') as HTMLElement);
    await waitFor(() => expect(document.body.textContent).toContain('Log out'));
    const item = [...document.querySelectorAll('.ant-dropdown-menu-item')].find(
      (el) => el.textContent === 'Log out',
    );
    fireEvent.click(item as HTMLElement);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(sessionStore.get()).toBeNull();
    const logout = calls.find((call) => call.path === '/auth/logout');
    expect(logout?.body).toEqual({ refreshToken: 'sid.refresh-1' });
  });
});

describe('second factor', () => {
  it('warns an administrator without one above the page, in the user language, until closed', async () => {
    const { container, i18n } = await home({ secondFactorMissing: true });
    const notice = () => q(container, '[data-testid="second-factor-notice"]');
    expect(notice()?.textContent).toContain('This administrator account has no second factor');
    await act(() => i18n.changeLanguage('zh-CN'));
    expect(notice()?.textContent).toContain('此管理员账号未开启双重验证');
    fireEvent.click(notice()!.querySelector('.ant-alert-close-icon')!);
    await waitFor(() => expect(notice()).toBeNull());
  });

  it('says nothing to a user who has one, or who is no administrator', async () => {
    const { container } = await home({ secondFactorMissing: false });
    expect(q(container, '[data-testid="second-factor-notice"]')).toBeNull();
  });
});

describe('side menu', () => {
  it('opens groups whose resource code holds colons (operation:orderManage) without a routing error', async () => {
    // ProLayout catches path-to-regexp's error and logs it (console.log), so both outputs are watched.
    const logged = [vi.spyOn(console, 'error'), vi.spyOn(console, 'log')];
    const menus = [
      resource('home', '/home'),
      resource('operation', null, [
        resource('operation:orderManage', null, [resource('operation:orderManage:logs', '/sys/log')]),
      ]),
    ];
    const { container, router } = await home({ menus });
    const title = (text: string) =>
      [...container.querySelectorAll('.ant-menu-submenu-title')].find((el) => el.textContent === text);
    fireEvent.click(title('Operations') as HTMLElement);
    await waitFor(() => expect(title('Order management')).toBeDefined());
    fireEvent.click(title('Order management') as HTMLElement);
    await act(() => router.navigate('/sys/log'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/sys/log'));
    const routingErrors = logged
      .flatMap((spy) => spy.mock.calls)
      .filter((call) => call.map(String).join(' ').includes('pathToRegexp'));
    expect(routingErrors).toEqual([]);
    logged.forEach((spy) => spy.mockRestore());
  });
});
