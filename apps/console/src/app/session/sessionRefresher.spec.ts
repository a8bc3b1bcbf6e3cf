// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { createSessionStore, type SessionToken } from '../../request';
import { memoryStorage } from '../../test/memoryStorage';
import { createSessionRefresher } from './sessionRefresher';

const NOW = 1_740_000_000_000;
const expired: SessionToken = { accessToken: 'old', expires: NOW - 1, refreshToken: 'sid.r1' };

function setup(respond: () => Response, stored: SessionToken | null = expired) {
  const session = createSessionStore(memoryStorage());
  if (stored) session.set(stored);
  const fetchSpy = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) => respond());
  const locked: string[] = [];
  const locks = {
    request: <T>(name: string, callback: () => Promise<T>) => {
      locked.push(name);
      return callback();
    },
  };
  const refresh = createSessionRefresher({
    baseUrl: '/base',
    session,
    fetch: fetchSpy as typeof fetch,
    now: () => NOW,
    locks,
  });
  return { refresh, fetchSpy, locked };
}

const tokens = {
  accessToken: 'new',
  expires: NOW + 1_800_000,
  refreshToken: 'sid.r2',
  refreshExpires: NOW + 9e8,
  tokenType: 'Bearer',
};

describe('session refresher', () => {
  it('POSTs the refresh token to /auth/refresh and keeps the new pair', async () => {
    const { refresh, fetchSpy, locked } = setup(() => Response.json(tokens));
    await expect(refresh(expired)).resolves.toEqual({
      accessToken: 'new',
      expires: tokens.expires,
      refreshToken: 'sid.r2',
    });
    const [url, init] = fetchSpy.mock.calls[0];
    expect(url).toBe('/base/auth/refresh');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ refreshToken: 'sid.r1' });
    expect(new Headers(init?.headers).get('Authorization')).toBeNull();
    expect(locked).toEqual(['voltdepot.session.refresh']);
  });

  it('uses a token another tab renewed meanwhile instead of spending the refresh token again', async () => {
    const renewed: SessionToken = { accessToken: 'renewed', expires: NOW + 60_000, refreshToken: 'sid.r2' };
    const { refresh, fetchSpy } = setup(() => Response.json(tokens), renewed);
    await expect(refresh(expired)).resolves.toEqual(renewed);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it.each([
    [
      '401 (revoked or reused)',
      () => Response.json({ code: 'AUTH_REFRESH_INVALID', message: 'x' }, { status: 401 }),
    ],
    ['500', () => new Response(null, { status: 500 })],
  ])(
    'fails on %s so the request layer sends the old token and the 401 ends the session',
    async (_label, respond) => {
      const { refresh } = setup(respond);
      await expect(refresh(expired)).rejects.toThrow(/token refresh failed/);
    },
  );

  it('fails without a refresh token', async () => {
    const noRefresh: SessionToken = { accessToken: 'old', expires: NOW - 1 };
    const { refresh, fetchSpy } = setup(() => Response.json(tokens), noRefresh);
    await expect(refresh(noRefresh)).rejects.toThrow(/no refresh token/);
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
