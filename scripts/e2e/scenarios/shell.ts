/** The console shell: sign-in, session expiry, menu and permissions, language, logs, big screen. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { BrowserGlobals } from '../browser-globals';
import {
  SESSION_KEY,
  DINGTALK_USER_AGENT,
  ZH_SESSION_EXPIRED,
  EN_SESSION_EXPIRED,
  pathOf,
  menu,
  openFromMenu,
  visible,
  storedSession,
  signIn,
  openUserMenuItem,
  ACCOUNTS,
  type Scenario,
} from './support';

/**
 * After the session was revoked behind the page's back: reload, unless the page has found out by itself
 * already (the message centre closes the push connection of a revoked session, and the reconnect's
 * request answers 401), which sends it to /login with the message before any reload.
 */
async function reloadUnlessEnded(page: Page): Promise<void> {
  const ended = await page
    .waitForURL((url) => url.pathname === '/login', { timeout: 2_000 })
    .then(() => true)
    .catch(() => false);
  if (!ended) await page.reload();
}

export const shellScenarios: Scenario[] = [
  {
    name: 'login page in Chinese: captcha image, the spec messages for missing fields',
    async run(t) {
      const page = await t.newPage();
      await page.goto(`${t.baseUrl}/login`);
      await visible(page, '账号登录');
      await visible(page, 'Voltdepot 充电运营平台'); // the decrypted systemName setting, translated
      await page.getByTestId('captcha-refresh').locator('img').waitFor();
      // cityCode 'fz' (seeded) keeps the blue primary colour.
      const colour = await page
        .getByTestId('login-submit')
        .evaluate(
          (button) => (globalThis as unknown as BrowserGlobals).getComputedStyle(button).backgroundColor,
        );
      assert.equal(colour, 'rgb(22, 119, 255)');
      await t.screenshot(page, 'login-zh-CN');
      await page.getByTestId('login-submit').click();
      for (const message of ['请输入正确的用户名', '密码不能少于6位', '验证码不能为空'])
        await visible(page, message);
      await page.getByTestId('login-password').fill('12345');
      await visible(page, '密码不能少于6位');
      await t.screenshot(page, 'login-validation-zh-CN');
    },
  },
  {
    name: 'no session: a protected page goes to /login once, without a reload loop',
    async run(t) {
      const page = await t.newPage();
      let loads = 0;
      const apiCalls: string[] = [];
      page.on('load', () => loads++);
      page.on('request', (request) => {
        const path = new URL(request.url()).pathname;
        if (/^\/(authority|user|api)\//.test(path)) apiCalls.push(path);
      });
      await page.goto(`${t.baseUrl}/sys/log`);
      await page.waitForURL((url) => url.pathname === '/login');
      await page.getByTestId('login-submit').waitFor();
      await page.waitForTimeout(1500);
      assert.equal(loads, 1, 'the page loaded once');
      assert.deepEqual(apiCalls, [], 'no signed-in call was made without a token');
      assert.equal(pathOf(page), '/login');
    },
  },
  {
    name: 'admin signs in with the captcha: menu from the resources, bell slot, big-screen icon',
    async run(t) {
      const page = await t.newPage();
      await signIn(page, t, ACCOUNTS.admin);
      await visible(page, '您好，Administrator');
      assert.equal(await page.getByTestId('header-title').textContent(), 'Voltdepot 充电运营平台');
      await page.getByTestId('header-logo').waitFor();
      await page.getByTestId('header-notice-slot').waitFor({ state: 'attached' }); // noticeIcon = 1
      await page.locator('button[aria-label="数据大屏"]').waitFor();
      const menuText = await menu(page).textContent();
      for (const item of ['首页', '欢迎', '系统管理'])
        assert.ok(menuText?.includes(item), `menu has ${item}`);
      assert.ok(!menuText?.includes('充电桩'), 'areas without pages stay out of the menu');
      const session = await storedSession(page);
      assert.ok(
        session?.accessToken && session.refreshToken && session.expires > Date.now(),
        'session stored',
      );
      await visible(page, /当前时间：\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
      await t.screenshot(page, 'home-zh-CN');
      await menu(page).getByText('欢迎', { exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/welcome');
      await visible(page, '欢迎使用 Voltdepot 充电运营平台');
      await t.screenshot(page, 'welcome-zh-CN');
    },
  },
  {
    name: 'language switch from the user menu (zh-CN -> en-US), remembered after a reload',
    async run(t) {
      const page = await t.newPage();
      await signIn(page, t, ACCOUNTS.admin);
      await page.getByTestId('user-menu').click();
      await page.getByRole('menuitem', { name: 'English' }).click();
      await visible(page, 'Hello, Administrator');
      assert.equal(await page.getByTestId('header-title').textContent(), 'Voltdepot Charging Operations');
      const menuText = await menu(page).textContent();
      for (const item of ['Home', 'Welcome', 'System'])
        assert.ok(menuText?.includes(item), `menu has ${item}`);
      await page.reload();
      await visible(page, 'Hello, Administrator');
      assert.equal(
        await page.evaluate(() => (globalThis as unknown as BrowserGlobals).document.documentElement.lang),
        'en-US',
      );
      await t.screenshot(page, 'home-en-US');
    },
  },
  {
    name: 'operation log: page from the menu, export downloaded as .xlsx',
    async run(t) {
      const page = await t.newPage();
      await signIn(page, t, ACCOUNTS.admin);
      await openFromMenu(page, '系统管理', '日志管理', '/sys/log');
      await visible(page, '操作日志');
      await page.locator('.ant-table-row').first().waitFor(); // the sign-in POST is logged
      await t.screenshot(page, 'logs-zh-CN');
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: '导出' }).click();
      const file = await download;
      assert.equal(file.suggestedFilename(), '操作日志.xlsx');
      const target = join(t.downloadsDir, file.suggestedFilename());
      await file.saveAs(target);
      const bytes = readFileSync(target);
      assert.ok(bytes.length > 1000, `an xlsx of ${bytes.length} bytes`);
      assert.equal(bytes.subarray(0, 4).toString('latin1'), 'PK\u0003\u0004', 'an xlsx is a zip file');
      await visible(page, '已导出 操作日志.xlsx');
      await page.getByRole('tab', { name: '登录日志' }).click();
      await visible(page, 'admin');
    },
  },
  {
    name: 'big screen: the desktop icon opens /screen/index.html in a new tab (clock, depot totals from the API)',
    async run(t) {
      const page = await t.newPage();
      await signIn(page, t, ACCOUNTS.admin);
      const popup = page.context().waitForEvent('page');
      await page.locator('button[aria-label="数据大屏"]').click();
      const screen = await popup;
      await screen.waitForLoadState();
      assert.equal(new URL(screen.url()).pathname, '/screen/index.html');
      const clock = screen.getByTestId('screen-clock');
      await clock.waitFor();
      const first = await clock.textContent();
      assert.match(first ?? '', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      await screen.waitForFunction(
        (before) =>
          (globalThis as unknown as BrowserGlobals).document.querySelector('[data-testid="screen-clock"]')
            ?.textContent !== before,
        first,
      );
      await screen.getByTestId('screen-total-organizations').getByText(/^\d+$/).waitFor();
      await screen.getByTestId('screen-total-users').getByText(/^\d+$/).waitFor();
      // Stations, piles, guns from the grids' totals, charging now from the monitor, energy from the orders.
      for (const key of ['stations', 'piles', 'guns', 'chargingNow']) {
        await screen.getByTestId(`screen-total-${key}`).getByText(/^\d+$/).waitFor();
      }
      await screen
        .getByTestId('screen-total-energyToday')
        .getByText(/^\d+(\.\d)?$/)
        .waitFor();
      assert.equal(await screen.getByText('暂无数据源（占位）').count(), 0, 'no tile is a placeholder');
      // The chart panels still wait for the reports area.
      assert.ok((await screen.getByTestId('screen-placeholder').count()) >= 1);
      await t.screenshot(screen, 'big-screen-zh-CN');
    },
  },
  {
    name: 'big screen from a DingTalk browser: ddtab flag and the access token, token dropped from the address',
    async run(t) {
      const page = await t.newPage({ userAgent: DINGTALK_USER_AGENT });
      await signIn(page, t, ACCOUNTS.admin);
      const session = await storedSession(page);
      const opened = page
        .context()
        .waitForEvent('request', (request) => new URL(request.url()).pathname === '/screen/index.html');
      const popup = page.context().waitForEvent('page');
      await page.locator('button[aria-label="数据大屏"]').click();
      const url = new URL((await opened).url());
      assert.equal(url.searchParams.get('ddtab'), 'true');
      assert.equal(url.searchParams.get('token'), session?.accessToken);
      const screen = await popup;
      await screen.getByTestId('screen-clock').waitFor();
      assert.equal(new URL(screen.url()).search, '?ddtab=true', 'the token is taken out of the address bar');
      await screen.getByTestId('screen-total-organizations').getByText(/^\d+$/).waitFor();
    },
  },
  {
    name: 'maintainer: no logs menu, no big-screen button, 403 on /sys/log',
    async run(t) {
      const page = await t.newPage();
      await signIn(page, t, ACCOUNTS.maintainer);
      await visible(page, '您好，Maintenance Staff');
      const menuText = (await menu(page).textContent()) ?? '';
      assert.ok(menuText.includes('首页'), 'maintainer has home');
      assert.ok(
        !menuText.includes('系统管理') && !menuText.includes('日志管理'),
        'no System > Logs for maintainer',
      );
      await page.getByTestId('user-menu').waitFor();
      assert.equal(
        await page.locator('button[aria-label="数据大屏"]').count(),
        0,
        'no go_screen: no big-screen icon',
      );
      await t.screenshot(page, 'home-maintainer-zh-CN');
      await page.goto(`${t.baseUrl}/sys/log`);
      await visible(page, '抱歉，您没有访问此页面的权限。');
      await t.screenshot(page, 'forbidden-maintainer-zh-CN');
    },
  },
  {
    name: 'an expired access token is refreshed before the next request',
    async run(t) {
      const page = await t.newPage();
      await signIn(page, t, ACCOUNTS.admin);
      const before = await storedSession(page);
      // Leave the app before ageing the token: a page still running could refresh it itself and be
      // unloaded before saving the answer (the rotated token would then be presented again, which
      // rightly revokes the session). A static file of the same origin keeps its storage reachable.
      await page.goto(`${t.baseUrl}/logo.svg`);
      await page.evaluate((key) => {
        const session = JSON.parse(
          (globalThis as unknown as BrowserGlobals).localStorage.getItem(key) ?? '{}',
        ) as { expires: number };
        session.expires = Date.now() - 1000;
        (globalThis as unknown as BrowserGlobals).localStorage.setItem(key, JSON.stringify(session));
      }, SESSION_KEY);
      const refreshed = page.waitForResponse((r) => new URL(r.url()).pathname === '/auth/refresh');
      await page.goto(`${t.baseUrl}/home`);
      assert.equal((await refreshed).status(), 200);
      await visible(page, '您好，Administrator');
      const after = await storedSession(page);
      // The access token can be byte-identical when issued within the same second (same claims); the
      // refresh token always rotates.
      assert.ok(after?.accessToken, 'an access token');
      assert.notEqual(after?.refreshToken, before?.refreshToken, 'the refresh token rotated');
      assert.ok((after?.expires ?? 0) > Date.now(), 'the new token is valid');
      assert.equal(pathOf(page), '/home');
    },
  },
  {
    name: "401: 'login status expired, please log in again' once, session cleared, /login",
    async run(t) {
      const page = await t.newPage({ locale: 'en-US' });
      await signIn(page, t, ACCOUNTS.admin);
      // The session is revoked elsewhere (e.g. an administrator); this tab still holds its tokens.
      // The message shows for 3 s: watch for it from before the revocation, so a slow machine cannot miss it.
      const shown = page.getByText(EN_SESSION_EXPIRED).first().waitFor({ state: 'visible' });
      const status = await page.evaluate(async (key) => {
        const { refreshToken } = JSON.parse(
          (globalThis as unknown as BrowserGlobals).localStorage.getItem(key) ?? '{}',
        ) as { refreshToken?: string };
        const response = await fetch('/auth/logout', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ refreshToken }),
        });
        return response.status;
      }, SESSION_KEY);
      assert.equal(status, 204);
      await reloadUnlessEnded(page); // loading the user answers 401 (twice: info and menus)
      await page.waitForURL((url) => url.pathname === '/login');
      await shown;
      assert.equal(
        await page.locator('.ant-message-notice', { hasText: EN_SESSION_EXPIRED }).count(),
        1,
        'shown once',
      );
      assert.equal(await storedSession(page), null, 'session cleared');
      await t.screenshot(page, 'session-expired-en-US');
    },
  },
  {
    name: 'the 401 message in Chinese',
    async run(t) {
      const page = await t.newPage();
      await signIn(page, t, ACCOUNTS.maintainer);
      const shown = page.getByText(ZH_SESSION_EXPIRED).first().waitFor({ state: 'visible' });
      await page.evaluate(async (key) => {
        const { refreshToken } = JSON.parse(
          (globalThis as unknown as BrowserGlobals).localStorage.getItem(key) ?? '{}',
        ) as { refreshToken?: string };
        await fetch('/auth/logout', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ refreshToken }),
        });
      }, SESSION_KEY);
      await reloadUnlessEnded(page);
      await page.waitForURL((url) => url.pathname === '/login');
      await shown;
    },
  },
  {
    name: 'change password from the user menu, log out, sign in with the new password',
    async run(t) {
      const page = await t.newPage();
      await signIn(page, t, ACCOUNTS.operator);
      await openUserMenuItem(page, '修改密码');
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('原密码').fill(ACCOUNTS.operator.password);
      await dialog.getByLabel('新密码', { exact: true }).fill('Demo@654321');
      await dialog.getByLabel('确认新密码').fill('Demo@65432');
      await dialog.getByRole('button', { name: /确\s*定/ }).click();
      await visible(page, '两次输入的密码不一致');
      await dialog.getByLabel('确认新密码').fill('Demo@654321');
      await t.screenshot(page, 'change-password-zh-CN');
      const changed = page.waitForResponse((r) => new URL(r.url()).pathname === '/user/password');
      await dialog.getByRole('button', { name: /确\s*定/ }).click();
      assert.equal((await changed).status(), 204);
      await visible(page, '密码修改成功');
      await openUserMenuItem(page, '退出登录');
      await page.waitForURL((url) => url.pathname === '/login');
      assert.equal(await storedSession(page), null, 'signed out');
      await page.goto(`${t.baseUrl}/home`);
      await page.waitForURL((url) => url.pathname === '/login');
      await signIn(page, t, { username: ACCOUNTS.operator.username, password: 'Demo@654321' });
      await visible(page, '您好，Operator Staff');
    },
  },
];
