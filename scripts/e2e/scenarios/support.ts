/**
 * What every browser scenario file shares: the context the runner passes, the demo accounts and the
 * sign-in helpers. Scenarios live one file per area in this folder and are listed in index.ts.
 */
import assert from 'node:assert/strict';
import { createDataSource } from '@voltdepot/server-database';
import type { Page } from 'playwright-core';
import type { DataSource } from 'typeorm';
import { seedDemoDepot } from '../../demo-depot';
import type { BrowserGlobals } from '../browser-globals';

export type Locale = 'zh-CN' | 'en-US';

export type ScenarioContext = {
  /** The console, e.g. http://127.0.0.1:24680 */
  baseUrl: string;
  downloadsDir: string;
  /** The services behind the console, for scenarios that drive them directly (e.g. a simulated pile). */
  services: {
    apiUrl: string;
    msgUrl: string;
    gatewayUrl: string;
    /** ws://127.0.0.1:<port>/ocpp — piles connect at `${ocppUrl}/${chargePointId}` */
    ocppUrl: string;
    /** The run's own database (demo data seeded). */
    databaseUrl: string;
    redisUrl: string;
  };
  /** A page in a new browser context; `locale` is the console language stored before the first load. */
  newPage(options?: { locale?: Locale; userAgent?: string }): Promise<Page>;
  /** Saves a screenshot as .var/e2e-screenshots/<name>.png */
  screenshot(page: Page, name: string): Promise<void>;
};

export type Scenario = { name: string; run: (t: ScenarioContext) => Promise<void> };

export const ACCOUNTS = {
  admin: { username: 'admin', password: 'Admin@123456' },
  maintainer: { username: 'maintainer', password: 'Demo@123456' },
  operator: { username: 'operator', password: 'Demo@123456' },
  fleet: { username: 'fleet', password: 'Demo@123456' },
} as const;

export const SESSION_KEY = 'voltdepot.session';
export const DINGTALK_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 DingTalk(7.6.0) nw';
export const ZH_SESSION_EXPIRED = '登录状态已过期，请重新登录';
export const EN_SESSION_EXPIRED = 'login status expired, please log in again';

export const pathOf = (page: Page) => new URL(page.url()).pathname;
export const menu = (page: Page) => page.locator('nav .ant-menu');

/** Opens `item` of the side menu's `group` and waits for `path`. */
export async function openFromMenu(page: Page, group: string, item: string, path: string): Promise<void> {
  const entry = menu(page).getByText(item, { exact: true });
  // The menu may still be settling (group animation, the landing page's own navigation): retry.
  for (let attempt = 1; ; attempt++) {
    if (!(await entry.isVisible())) await menu(page).getByText(group, { exact: true }).click();
    await entry.waitFor({ state: 'visible' });
    await entry.click();
    try {
      await page.waitForURL((url) => url.pathname === path, { timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

export async function visible(page: Page, text: string | RegExp): Promise<void> {
  await page.getByText(text).first().waitFor({ state: 'visible' });
}

export async function storedSession(
  page: Page,
): Promise<{ accessToken: string; expires: number; refreshToken?: string } | null> {
  return page.evaluate(
    (key) => JSON.parse((globalThis as unknown as BrowserGlobals).localStorage.getItem(key) ?? 'null'),
    SESSION_KEY,
  );
}

/** Asks for a new captcha image and reads its answer from the test-only `testAnswer` field. */
export async function captchaAnswer(page: Page): Promise<string> {
  await page.getByTestId('captcha-refresh').locator('img').waitFor();
  const response = page.waitForResponse((r) => new URL(r.url()).pathname === '/auth/captcha' && r.ok());
  await page.getByTestId('captcha-refresh').click();
  const body = (await (await response).json()) as { testAnswer?: unknown; image?: unknown };
  assert.equal(typeof body.testAnswer, 'string', 'the api must run with CAPTCHA_EXPOSE_ANSWER=true');
  assert.match(String(body.image), /^data:image\/svg\+xml;base64,/);
  return body.testAnswer as string;
}

export async function signIn(
  page: Page,
  t: ScenarioContext,
  account: { username: string; password: string },
) {
  await page.goto(`${t.baseUrl}/login`);
  const answer = await captchaAnswer(page);
  await page.getByTestId('login-username').fill(account.username);
  await page.getByTestId('login-password').fill(account.password);
  await page.getByTestId('login-captcha').fill(answer);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => url.pathname === '/home');
  await page.getByTestId('user-menu').waitFor();
}

export async function openUserMenuItem(page: Page, label: string): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: label }).click();
}

/** `check` again every 500 ms until it passes; its last failure once `timeoutMs` have gone by. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** A token for setting things up through the api directly (the captcha answer is exposed in tests). */
export async function apiToken(
  t: ScenarioContext,
  account: { username: string; password: string },
): Promise<string> {
  const captcha = (await (await fetch(`${t.services.apiUrl}/auth/captcha`)).json()) as {
    captchaId: string;
    testAnswer: string;
  };
  const login = await fetch(`${t.services.apiUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...account, captchaId: captcha.captchaId, captchaCode: captcha.testAnswer }),
  });
  assert.equal(login.status, 200, `api sign-in of ${account.username}: ${login.status}`);
  return ((await login.json()) as { accessToken: string }).accessToken;
}

/**
 * The api as an administrator, for the rows a scenario starts from: a JSON `post` that fails the
 * scenario on any status but 2xx.
 */
export async function adminApi(t: ScenarioContext) {
  const accessToken = await apiToken(t, ACCOUNTS.admin);
  const call = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${t.services.apiUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    assert.ok(res.ok, `${method} ${path} -> ${res.status} ${text}`);
    return JSON.parse(text) as T;
  };
  const post = <T = { id: number }>(path: string, body: unknown) => call<T>('POST', path, body);
  /** `post.get(path)`: a GET as the administrator, failing the scenario on any status but 2xx. */
  return Object.assign(post, { get: <T>(path: string) => call<T>('GET', path) });
}

/**
 * A valid body of `POST /api/station`: open day and night, internal fees; `fields` sets what a scenario
 * cares about (number, name, region, labels, address, position).
 */
export function stationBody(fields: {
  number: string;
  name: string;
  regionId: number;
  labelIds: number[];
  address?: string;
  longitude?: number;
  latitude?: number;
}) {
  return {
    type: 100,
    status: 0,
    address: '8 Beihuan Road, Fuzhou',
    longitude: 119.3,
    latitude: 26.07,
    openingTime: '00:00',
    closingTime: '23:59',
    isOpen: true,
    supportsReservation: false,
    feeScope: 'internal',
    freeParkingMinutes: 30,
    occupationIntervalMinutes: 15,
    occupationUnitPriceFen: 100,
    cappedAmountFen: 5000,
    ...fields,
  };
}

/** `work` on one connection to the run's database (named `applicationName`), closed afterwards. */
export async function withRunDatabase<T>(
  t: ScenarioContext,
  applicationName: string,
  work: (dataSource: DataSource) => Promise<T>,
): Promise<T> {
  const dataSource = createDataSource({ url: t.services.databaseUrl, poolSize: 1, applicationName });
  await dataSource.initialize();
  try {
    return await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** The demo depot (piles, cards, price plans) in the run's database; seeding again changes nothing. */
export async function seedRunDemoDepot(t: ScenarioContext, applicationName: string): Promise<void> {
  await withRunDatabase(t, applicationName, seedDemoDepot);
}
