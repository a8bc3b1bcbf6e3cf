// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '../test/memoryStorage';
import { createSessionStore, isTokenExpired, SESSION_STORAGE_KEY } from './session';

describe('session store', () => {
  it('keeps the token in storage so it survives a reload', () => {
    const storage = memoryStorage();
    createSessionStore(storage).set({ accessToken: 'abc', expires: 1000 });
    expect(createSessionStore(storage).get()).toEqual({ accessToken: 'abc', expires: 1000 });
  });

  it('keeps the refresh token with it', () => {
    const storage = memoryStorage();
    createSessionStore(storage).set({ accessToken: 'abc', expires: 1000, refreshToken: 'sid.r1' });
    expect(createSessionStore(storage).get()).toEqual({
      accessToken: 'abc',
      expires: 1000,
      refreshToken: 'sid.r1',
    });
  });

  it('clears the token and tells subscribers', () => {
    const store = createSessionStore(memoryStorage());
    const listener = vi.fn();
    store.subscribe(listener);
    store.set({ accessToken: 'abc', expires: 1000 });
    store.clear();
    expect(store.get()).toBeNull();
    expect(listener.mock.calls).toEqual([[{ accessToken: 'abc', expires: 1000 }], [null]]);
  });

  it.each([
    ['not JSON', 'abc'],
    ['no access token', '{"expires":1}'],
    ['an empty access token', '{"accessToken":"","expires":1}'],
    ['expires not a number', '{"accessToken":"a","expires":"soon"}'],
  ])('a damaged entry (%s) is no session', (_label, raw) => {
    expect(createSessionStore(memoryStorage({ [SESSION_STORAGE_KEY]: raw })).get()).toBeNull();
  });

  it.each([
    [999, false],
    [1000, true],
    [1001, true],
  ])('a token expiring at 1000 is expired at %i: %s', (now, expired) => {
    expect(isTokenExpired({ accessToken: 'a', expires: 1000 }, now)).toBe(expired);
  });
});
