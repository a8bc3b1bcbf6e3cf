import type { SessionStore } from '../request';

/** Expiry (epoch ms) of a JWT access token, read from its `exp` claim; undefined when unreadable. */
export function jwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const json = atob(
      payload
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(payload.length / 4) * 4, '='),
    );
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A workplace-chat browser opens the big screen with `?ddtab=true&token=<access token>` because the new
 * tab does not share the console's storage (spec §2). Adopt that token as the session (it cannot be
 * refreshed: when it expires the next call's 401 ends it) and take it out of the address bar.
 * Returns the URL to show instead, or undefined when there was no token.
 */
export function adoptTokenFromUrl(href: string, session: SessionStore, now: number): string | undefined {
  const url = new URL(href);
  const token = url.searchParams.get('token');
  if (!token) return undefined;
  url.searchParams.delete('token');
  if (session.get()?.accessToken !== token) {
    session.set({ accessToken: token, expires: jwtExpiry(token) ?? now + 30 * 60_000 });
  }
  return `${url.pathname}${url.search}${url.hash}`;
}
