// @vitest-environment node
// Node's fetch, Response and AbortController are the same family, as in a browser.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '../test/memoryStorage';
import {
  createRequestClient,
  ERROR_MESSAGE_SECONDS,
  REQUEST_TIMEOUT_MS,
  SESSION_EXPIRED_MESSAGE_SECONDS,
  type RequestClientDeps,
  type RequestMessageKey,
} from './client';
import { RequestError } from './errors';
import { createSessionStore, type SessionToken } from './session';
import { enUS } from '../locales/en-US';

const NOW = Date.parse('2025-03-01T08:00:00Z');
const validToken: SessionToken = { accessToken: 'valid-token', expires: NOW + 60_000 };
const expiredToken: SessionToken = { accessToken: 'expired-token', expires: NOW - 1 };

type FetchCall = { url: string; init: RequestInit };

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** A client with every side effect replaced by a spy; `respond` decides each answer. */
function setup(
  options: {
    token?: SessionToken | null;
    respond?: (call: FetchCall) => Response | Promise<Response>;
    path?: string;
    deps?: Partial<RequestClientDeps>;
  } = {},
) {
  const session = createSessionStore(memoryStorage());
  if (options.token) session.set(options.token);
  const calls: FetchCall[] = [];
  const respond = options.respond ?? (() => json({ ok: true }));
  const fetchSpy = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = { url: String(input), init: init ?? {} };
    calls.push(call);
    return respond(call);
  });
  const notify = { error: vi.fn(), warning: vi.fn() };
  const navigate = vi.fn();
  const reload = vi.fn();
  const saveFile = vi.fn();
  const openWindow = vi.fn();
  const translate = (key: RequestMessageKey) =>
    enUS.request[key.slice('request.'.length) as keyof typeof enUS.request];
  const client = createRequestClient({
    baseUrl: '',
    session,
    notify,
    translate,
    navigate,
    reload,
    currentPath: () => options.path ?? '/home',
    saveFile,
    openWindow,
    fetch: fetchSpy as typeof fetch,
    now: () => NOW,
    ...options.deps,
  });
  const header = (index: number, name: string) => new Headers(calls[index].init.headers).get(name);
  return { client, session, calls, fetchSpy, notify, navigate, reload, saveFile, openWindow, header };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('base URL', () => {
  it.each([
    ['', '/api/stations', '/api/stations'],
    ['', 'ms/m1/msg/template/page/1/size/10', '/ms/m1/msg/template/page/1/size/10'],
    ['https://ops.example.com', '/api/stations', 'https://ops.example.com/api/stations'],
    ['https://ops.example.com/base/', '/api/stations', 'https://ops.example.com/base/api/stations'],
    [
      '/gateway',
      'public/noAuth/getPlatformModuleConfigList',
      '/gateway/public/noAuth/getPlatformModuleConfigList',
    ],
    [
      'https://ops.example.com',
      'https://camera.example.com/api/camera/queryStationList',
      'https://camera.example.com/api/camera/queryStationList',
    ],
  ])('base %j + path %j -> %s', async (baseUrl, path, expected) => {
    const { client, calls } = setup({ deps: { baseUrl } });
    await client.get(path);
    expect(calls[0].url).toBe(expected);
  });
});

describe('bearer token', () => {
  it('sends the stored access token on every request', async () => {
    const { client, header } = setup({ token: validToken });
    await client.get('/api/a');
    await client.post('/api/b', { name: 'x' });
    expect(header(0, 'Authorization')).toBe('Bearer valid-token');
    expect(header(1, 'Authorization')).toBe('Bearer valid-token');
  });

  it('sends no authorization header without a session', async () => {
    const { client, header } = setup();
    await client.get('/public/noAuth/getPlatformModuleConfigList');
    expect(header(0, 'Authorization')).toBeNull();
  });
});

describe('token refresh', () => {
  it('refreshes an expired token before the request and stores the new one', async () => {
    const fresh: SessionToken = { accessToken: 'fresh-token', expires: NOW + 3_600_000 };
    const refreshToken = vi.fn(async () => fresh);
    const { client, header, session } = setup({ token: expiredToken, deps: { refreshToken } });
    await client.get('/api/a');
    expect(refreshToken).toHaveBeenCalledWith(expiredToken);
    expect(header(0, 'Authorization')).toBe('Bearer fresh-token');
    expect(session.get()).toEqual(fresh);
  });

  it('shares one refresh between concurrent requests', async () => {
    const fresh: SessionToken = { accessToken: 'fresh-token', expires: NOW + 3_600_000 };
    const refreshToken = vi.fn(async () => fresh);
    const { client, calls } = setup({ token: expiredToken, deps: { refreshToken } });
    await Promise.all([client.get('/api/a'), client.get('/api/b'), client.get('/api/c')]);
    expect(refreshToken).toHaveBeenCalledTimes(1);
    expect(calls.map((call) => new Headers(call.init.headers).get('Authorization'))).toEqual([
      'Bearer fresh-token',
      'Bearer fresh-token',
      'Bearer fresh-token',
    ]);
  });

  it.each([
    ['not expired', validToken, 0],
    ['expiring exactly now', { accessToken: 't', expires: NOW }, 1],
    ['expired', expiredToken, 1],
  ])('token %s -> %i refresh call(s)', async (_label, token, refreshes) => {
    const refreshToken = vi.fn(async () => validToken);
    const { client } = setup({ token, deps: { refreshToken } });
    await client.get('/api/a');
    expect(refreshToken).toHaveBeenCalledTimes(refreshes);
  });

  it('sends the old token when the refresh fails, leaving the 401 to end the session', async () => {
    const refreshToken = vi.fn(async () => {
      throw new Error('refresh endpoint down');
    });
    const { client, header } = setup({ token: expiredToken, deps: { refreshToken } });
    await client.get('/api/a');
    expect(header(0, 'Authorization')).toBe('Bearer expired-token');
  });
});

describe('401 with a stored token', () => {
  const unauthorized = () =>
    json({ code: 'UNAUTHORIZED', message: 'token expired', correlationId: 'c-1' }, 401);

  it("shows 'login status expired, please log in again' for 3 s, clears the session and goes to /login", async () => {
    const { client, notify, session, navigate, reload } = setup({ token: validToken, respond: unauthorized });
    await expect(client.get('/api/a')).rejects.toMatchObject({ name: 'RequestError', status: 401 });
    expect(notify.error).toHaveBeenCalledExactlyOnceWith('login status expired, please log in again', 3);
    expect(SESSION_EXPIRED_MESSAGE_SECONDS).toBe(3);
    expect(session.get()).toBeNull();
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/login');
    expect(reload).not.toHaveBeenCalled();
  });

  it('does it once only when many requests fail at once', async () => {
    const { client, notify, navigate, reload } = setup({ token: validToken, respond: unauthorized });
    const results = await Promise.allSettled(['/a', '/b', '/c', '/d', '/e'].map((path) => client.get(path)));
    expect(results.every((result) => result.status === 'rejected')).toBe(true);
    expect(notify.error).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(reload).not.toHaveBeenCalled();
  });

  it('handles the next session expiry again after a new sign-in', async () => {
    const { client, notify, navigate, session } = setup({ token: validToken, respond: unauthorized });
    await client.get('/api/a').catch(() => undefined);
    session.set({ accessToken: 'second-session', expires: NOW + 60_000 });
    await client.get('/api/a').catch(() => undefined);
    expect(notify.error).toHaveBeenCalledTimes(2);
    expect(navigate).toHaveBeenCalledTimes(2);
  });
});

describe('401 without a stored token', () => {
  it.each([
    ['/home', 1],
    ['/station/ChargEquipManage/index', 1],
    ['/login', 0],
    ['/login/', 0],
  ])('on %s -> %i reload(s), no message, no navigation', async (path, reloads) => {
    const { client, reload, notify, navigate } = setup({ path, respond: () => json({ message: 'no' }, 401) });
    await expect(client.get('/api/a')).rejects.toBeInstanceOf(RequestError);
    expect(reload).toHaveBeenCalledTimes(reloads);
    expect(notify.error).not.toHaveBeenCalled();
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('error answers', () => {
  it.each([
    [400, { code: 'VALIDATION_FAILED', message: 'stationName must not be empty', correlationId: 'c-400' }],
    [403, { code: 'FORBIDDEN', message: 'no permission for go_screen', correlationId: 'c-403' }],
    [404, { code: 'NOT_FOUND', message: 'station 9 not found', correlationId: 'c-404' }],
    [409, { code: 'CONFLICT', message: 'card number already exists', correlationId: 'c-409' }],
    [422, { code: 'BUSINESS_RULE_VIOLATED', message: 'gun is charging', correlationId: 'c-422' }],
    [500, { code: 'INTERNAL_ERROR', message: 'internal error', correlationId: 'c-500' }],
    [503, { code: 'SERVICE_UNAVAILABLE', message: 'message centre unavailable', correlationId: 'c-503' }],
  ])('%i with a message: shown for 5 s, promise rejected with the body', async (status, body) => {
    const { client, notify, navigate, reload } = setup({
      token: validToken,
      respond: () => json(body, status),
    });
    const error = await client.get('/api/a').catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({ status, message: body.message, body });
    expect(notify.error).toHaveBeenCalledExactlyOnceWith(body.message, 5);
    expect(ERROR_MESSAGE_SECONDS).toBe(5);
    expect(navigate).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
  });

  it.each([
    ['no body', () => new Response(null, { status: 502 })],
    ['an empty JSON object', () => json({}, 500)],
    ['a blank message', () => json({ code: 'X', message: '  ' }, 400)],
    [
      'an HTML error page',
      () => new Response('<h1>Bad Gateway</h1>', { status: 502, headers: { 'content-type': 'text/html' } }),
    ],
  ])('non-2xx with %s: passed through as a resolved undefined, nothing shown', async (_label, respond) => {
    const { client, notify } = setup({ token: validToken, respond });
    await expect(client.get('/api/a')).resolves.toBeUndefined();
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('a failure with no response (network down) is passed through as a resolved undefined', async () => {
    const { client, notify } = setup({
      respond: () => {
        throw new TypeError('fetch failed');
      },
    });
    await expect(client.get('/api/a')).resolves.toBeUndefined();
    expect(notify.error).not.toHaveBeenCalled();
  });
});

describe('successful answers', () => {
  it.each([
    ['JSON', () => json({ list: [{ id: 1 }], total: 1 }), { list: [{ id: 1 }], total: 1 }],
    ['JSON with charset', () => json(true, 200, { 'content-type': 'application/json;charset=UTF-8' }), true],
    ['201 Created (NestJS POST)', () => json({ id: 7 }, 201), { id: 7 }],
    ['204 No Content', () => new Response(null, { status: 204 }), undefined],
    ['plain text', () => new Response('pong', { headers: { 'content-type': 'text/plain' } }), 'pong'],
  ])('%s', async (_label, respond, expected) => {
    const { client } = setup({ respond });
    await expect(client.post('/api/a', { x: 1 })).resolves.toEqual(expected);
  });

  it('sends plain bodies as JSON and FormData as it is', async () => {
    const { client, calls, header } = setup();
    await client.post('/api/a', { bId: 1, bType: 'station', name: 'Depot 1' });
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.png');
    await client.post('/api/upload', form);
    expect(calls[0].init.body).toBe('{"bId":1,"bType":"station","name":"Depot 1"}');
    expect(header(0, 'Content-Type')).toBe('application/json');
    expect(calls[1].init.body).toBe(form);
    expect(header(1, 'Content-Type')).toBeNull();
  });

  it('builds GET query strings, by hand when a value has square brackets', async () => {
    const { client, calls } = setup();
    await client.get('/api/report', { params: { page: 1, name: 'a b' } });
    await client.get('/api/report', { params: { ids: '[1,2]', name: 'a b' } });
    expect(calls[0].url).toBe('/api/report?page=1&name=a+b');
    expect(calls[1].url).toBe('/api/report?ids=[1%2C2]&name=a%20b');
  });
});

describe('time-out', () => {
  /** A fetch that never answers but honours its abort signal, like a stalled server. */
  const stalled = (call: FetchCall) =>
    new Promise<Response>((_resolve, reject) => {
      const signal = call.init.signal;
      if (signal?.aborted) reject(signal.reason);
      signal?.addEventListener('abort', () => reject(signal.reason));
    });

  it.each([
    ['the default', undefined, REQUEST_TIMEOUT_MS],
    ['a per-call value', 5_000, 5_000],
    ['the long reading of one area', 1_800_000, 1_800_000],
  ])('aborts after %s (%s ms) and resolves undefined', async (_label, timeout, expectedMs) => {
    vi.useFakeTimers();
    const { client, calls } = setup({ respond: stalled });
    let settled = false;
    const pending = client.get('/api/a', { timeout }).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(expectedMs - 1);
    expect(settled).toBe(false);
    expect(calls[0].init.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(pending).resolves.toBeUndefined();
    expect(calls[0].init.signal?.aborted).toBe(true);
  });

  it('the default is 120000 ms', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(120000);
  });

  it('rejects with the abort reason when the caller cancels', async () => {
    const { client, calls } = setup({ respond: stalled });
    const controller = new AbortController();
    const pending = client.get('/api/a', { signal: controller.signal });
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    const reason = new DOMException('query cancelled', 'AbortError');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(calls[0].init.signal?.aborted).toBe(true);
  });

  it('does not send a call cancelled before it started', async () => {
    const { client, calls } = setup();
    const reason = new DOMException('query cancelled', 'AbortError');
    await expect(client.get('/api/a', { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(calls).toHaveLength(0);
  });
});

describe('files', () => {
  const file = (content: string, disposition?: string) => () =>
    new Response(content, {
      headers: {
        'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        ...(disposition ? { 'content-disposition': disposition } : {}),
      },
    });

  it('a response with content-disposition yields { data, fileName } with the decoded name', async () => {
    const { client } = setup({
      respond: file('PK..', "attachment; filename*=UTF-8''%E5%85%85%E7%94%B5%E6%8A%A5%E8%A1%A8.xlsx"),
    });
    const result = await client.get<{ data: Blob; fileName: string }>('/api/report/export');
    expect(result?.fileName).toBe('充电报表.xlsx');
    expect(await result?.data.text()).toBe('PK..');
  });

  it.each([
    ['the server name', "attachment; filename*=UTF-8''%E6%97%A5%E6%8A%A5.xlsx", undefined, '日报.xlsx'],
    ['the server name without extension', 'attachment; filename="daily"', undefined, 'daily.xlsx'],
    ['the caller name', 'attachment; filename="daily.xlsx"', 'station-month', 'station-month.xlsx'],
    ['a default name', undefined, undefined, 'export.xlsx'],
  ])('export saves %s as .xlsx', async (_label, disposition, fileName, saved) => {
    const { client, saveFile, calls, header } = setup({
      token: validToken,
      respond: file('PK..', disposition),
    });
    await expect(
      client.exportExcel('/api/report/export', { method: 'POST', body: { month: '2025-03' }, fileName }),
    ).resolves.toBe(saved);
    expect(saveFile).toHaveBeenCalledOnce();
    expect(saveFile.mock.calls[0][1]).toBe(saved);
    expect(calls[0].init.method).toBe('POST');
    expect(header(0, 'Authorization')).toBe('Bearer valid-token');
  });

  it.each([
    ['an empty body', () => new Response('', { status: 200 })],
    ['no response at all', () => Promise.reject(new TypeError('fetch failed'))],
    ['an error answer without a message', () => new Response(null, { status: 500 })],
  ])("warns 'file download failed' when the download returns %s", async (_label, respond) => {
    const { client, notify, saveFile } = setup({ respond });
    await expect(client.exportExcel('/api/report/export')).resolves.toBeUndefined();
    expect(notify.warning).toHaveBeenCalledExactlyOnceWith('file download failed', 5);
    expect(saveFile).not.toHaveBeenCalled();
  });

  it('template export opens base URL + path with only the non-empty params', () => {
    const { client, openWindow } = setup({ deps: { baseUrl: 'https://ops.example.com' } });
    client.openExportLink('/api/template/export', {
      name: '',
      type: '1',
      configId: undefined,
      page: 0,
      ids: '[3]',
    });
    expect(openWindow).toHaveBeenCalledExactlyOnceWith(
      'https://ops.example.com/api/template/export?type=1&page=0&ids=[3]',
    );
  });
});
