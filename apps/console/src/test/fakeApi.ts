import type { CaptchaResponse } from '@voltdepot/shared-contracts';
import type { CurrentUserInfo, ResourceNode, TodayOverview } from '@voltdepot/console-api-client';
import { vi } from 'vitest';

export type FakeRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Headers;
};
/** A handler answers with a Response, or with a value sent as JSON 200. */
export type FakeHandler = (request: FakeRequest) => unknown;

export function json(body: unknown, status = 200): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

let nextId = 1;
export function resource(
  code: string,
  path: string | null,
  children: ResourceNode[] = [],
  extra: Partial<ResourceNode> = {},
): ResourceNode {
  return {
    id: nextId++,
    parentId: null,
    type: 'menu',
    code,
    name: code,
    path,
    icon: null,
    sort: 0,
    visible: true,
    children,
    ...extra,
  };
}

/** The seeded menu shape: home, welcome, a hidden global holder, a group without pages, System > Logs. */
export function demoMenus(options: { logs?: boolean } = {}): ResourceNode[] {
  return [
    resource('global', '/global', [], { visible: false }),
    resource('home', '/home'),
    resource('welcome', '/welcome'),
    resource('station', '/station', [
      resource('station:ChargEquipManage', '/station/ChargEquipManage/index'),
    ]),
    ...(options.logs === false
      ? []
      : [resource('sys', '/sys', [resource('sys:user', '/sys/user'), resource('sys:log', '/sys/log')])]),
  ];
}

export function demoUser(permissions: string[], extra: Partial<CurrentUserInfo> = {}): CurrentUserInfo {
  return {
    id: 1,
    username: 'admin',
    realName: 'Administrator',
    organizationId: 1,
    organizationName: 'Voltdepot Group',
    roles: [{ id: 1, code: 'admin', name: 'Administrator' }],
    permissions,
    menus: [],
    secondFactorMissing: false,
    ...extra,
  };
}

export const ADMIN_PERMISSIONS = [
  'global',
  'go_screen',
  'home',
  'welcome',
  'sys',
  'sys:log',
  'sys:log:operation',
  'sys:log:login',
];

export const demoCaptcha = (n = 1): CaptchaResponse => ({
  captchaId: `00000000-0000-4000-8000-00000000000${n}`,
  image: `data:image/svg+xml;base64,${btoa(`<svg xmlns="http://www.w3.org/2000/svg" id="c${n}"/>`)}`,
  expiresAt: Date.now() + 120_000,
});

/**
 * Replaces fetch with a fake Core API. Routes are 'METHOD /path' (no query); anything else answers 404
 * without a body. Returns the calls made.
 */
export function stubApi(routes: Record<string, FakeHandler>) {
  const calls: FakeRequest[] = [];
  const fetchSpy = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://console.test');
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : init.body;
    const request: FakeRequest = {
      method,
      path: url.pathname,
      query: url.searchParams,
      body,
      headers: new Headers(init.headers),
    };
    calls.push(request);
    const handler = routes[`${method} ${url.pathname}`];
    if (!handler) return new Response(null, { status: 404 });
    const answer = await handler(request);
    return answer instanceof Response ? answer : json(answer);
  });
  vi.stubGlobal('fetch', fetchSpy);
  return { calls, fetchSpy };
}

/** GET /api/overview/today: the home page's figures (Shanghai business day 2026-11-22). */
export function demoOverview(o: Partial<TodayOverview> = {}): TodayOverview {
  return {
    businessDay: {
      date: '2026-11-22',
      timeZone: 'Asia/Shanghai',
      from: '2026-11-21T16:00:00.000Z',
      to: '2026-11-22T16:00:00.000Z',
    },
    stations: { online: 3, total: 4 },
    piles: { online: 5, total: 6 },
    guns: { online: 7, total: 9, charging: 2 },
    orders: { count: 12, energyWh: 412_345, revenueFen: 30_199 },
    faults: { open: 1, piles: 1, guns: 1 },
    ...o,
  };
}

/** The calls a signed-in shell makes, for a user with these permissions and menus. */
export function signedInApi(
  permissions: string[] = ADMIN_PERMISSIONS,
  menus: ResourceNode[] = demoMenus(),
  more: Record<string, FakeHandler> = {},
): Record<string, FakeHandler> {
  return {
    'GET /authority/users/currentuser/info': () => demoUser(permissions, { menus }),
    'GET /authority/users/currentuser/menus': () => menus,
    'GET /authority/users/currentuser/permissions': () => permissions,
    'GET /user/getUserExt': () => ({
      userId: 1,
      username: 'admin',
      realName: 'Administrator',
      phone: null,
      email: null,
      organizationId: 1,
      organizationName: 'Voltdepot Group',
      dataScopeOrganizationIds: [1],
      lastLoginAt: '2025-03-01T08:00:00.000Z',
      totpEnabled: false,
    }),
    'GET /api/operationLog/page/1/size/10': () => ({ list: [], total: 0 }),
    'GET /api/loginLog/page/1/size/10': () => ({ list: [], total: 0 }),
    'GET /api/overview/today': () => demoOverview(),
    ...more,
  };
}

/** Dictionary items by type code: `[value, name]` pairs in their order. */
export type FakeDictionaries = Record<string, readonly (readonly [string, string])[]>;

/** GET /api/dict/type/{code} for each type, answered as the api answers it (enabled items, in order). */
export function dictionaryRoutes(dictionaries: FakeDictionaries): Record<string, FakeHandler> {
  return Object.fromEntries(
    Object.entries(dictionaries).map(([code, values]) => [
      `GET /api/dict/type/${code}`,
      () =>
        values.map(([value, name], i) => ({
          id: i + 1,
          parentId: 100,
          kind: 'item',
          code: `${code}_${value}`,
          name,
          value,
          sort: i,
          enabled: true,
          children: [],
        })),
    ]),
  );
}
