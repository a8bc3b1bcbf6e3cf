// @vitest-environment node
import type { OrganizationNode } from '@voltdepot/console-api-client';
import { describe, expect, it } from 'vitest';
import { createSessionStore } from '../request';
import { memoryStorage } from '../test/memoryStorage';
import { adoptTokenFromUrl, jwtExpiry } from './screenSession';
import { countNodes } from './screenTotals';

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: object) => `${b64url({ alg: 'HS256' })}.${b64url(claims)}.sig`;

describe('big screen session', () => {
  it('reads the expiry of a JWT', () => {
    expect(jwtExpiry(jwt({ sub: '1', exp: 1_740_000_000 }))).toBe(1_740_000_000_000);
    expect(jwtExpiry('not-a-jwt')).toBeUndefined();
    expect(jwtExpiry(`a.${b64url({ sub: 1 })}.c`)).toBeUndefined();
  });

  it('adopts the token passed by the workplace-chat browser and drops it from the address', () => {
    const session = createSessionStore(memoryStorage());
    const token = jwt({ exp: 1_740_000_000 });
    const shown = adoptTokenFromUrl(
      `https://ops.example.com/screen/index.html?ddtab=true&token=${token}`,
      session,
      0,
    );
    expect(shown).toBe('/screen/index.html?ddtab=true');
    expect(session.get()).toEqual({ accessToken: token, expires: 1_740_000_000_000 });
  });

  it('keeps the stored session when the URL carries the same token (its refresh token stays)', () => {
    const session = createSessionStore(memoryStorage());
    session.set({ accessToken: 'a.b.c', expires: 5, refreshToken: 'sid.r' });
    adoptTokenFromUrl('https://ops.example.com/screen/index.html?token=a.b.c', session, 0);
    expect(session.get()?.refreshToken).toBe('sid.r');
  });

  it('does nothing without a token', () => {
    const session = createSessionStore(memoryStorage());
    expect(adoptTokenFromUrl('https://ops.example.com/screen/index.html', session, 0)).toBeUndefined();
    expect(session.get()).toBeNull();
  });

  it('counts every organisation of the visible tree', () => {
    const node = (id: number, children: OrganizationNode[] = []): OrganizationNode => ({
      id,
      parentId: null,
      code: `o${id}`,
      name: `O${id}`,
      sort: 0,
      children,
    });
    expect(countNodes([node(1, [node(2, [node(4)]), node(3)])])).toBe(4);
    expect(countNodes([])).toBe(0);
  });
});
