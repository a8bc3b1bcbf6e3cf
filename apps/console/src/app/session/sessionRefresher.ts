import { apiPath } from '@voltdepot/console-api-client';
import type { SessionTokens } from '@voltdepot/shared-contracts';
import {
  isTokenExpired,
  joinUrl,
  REQUEST_TIMEOUT_MS,
  type SessionStore,
  type SessionToken,
  type TokenRefresher,
} from '../../request';
import { toSessionToken } from './authApi';

type Locks = { request<T>(name: string, callback: () => Promise<T>): Promise<T> };

export type SessionRefresherDeps = {
  baseUrl: string;
  session: SessionStore;
  fetch?: typeof fetch;
  now?: () => number;
  /** Web Locks (navigator.locks): serialises refreshes across the tabs of this browser. */
  locks?: Locks;
};

export const REFRESH_LOCK_NAME = 'voltdepot.session.refresh';

/**
 * Exchanges an expired access token for a new one with `POST /auth/refresh` (spec §4: refreshed before
 * a request). It calls fetch directly, not the request client, which is what is waiting for it.
 *
 * Refresh tokens rotate and a rotated one presented again revokes the whole session, so two tabs must
 * never refresh with the same token: refreshes run under a browser-wide lock and, inside it, a token
 * another tab already renewed is used as it is.
 */
export function createSessionRefresher(deps: SessionRefresherDeps): TokenRefresher {
  const fetchImpl = deps.fetch ?? ((input, init) => fetch(input, init));
  const now = deps.now ?? Date.now;
  const locks = deps.locks ?? browserLocks();

  async function refresh(expired: SessionToken): Promise<SessionToken> {
    const current = deps.session.get();
    if (current && current.accessToken !== expired.accessToken && !isTokenExpired(current, now())) {
      return current; // renewed meanwhile (another tab, or an earlier call)
    }
    const refreshToken = current?.refreshToken ?? expired.refreshToken;
    if (!refreshToken) throw new Error('the session has no refresh token');
    const response = await fetchImpl(joinUrl(deps.baseUrl, apiPath('AuthController_refresh')), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ refreshToken }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`token refresh failed: HTTP ${response.status}`);
    return toSessionToken((await response.json()) as SessionTokens);
  }

  return (expired) => (locks ? locks.request(REFRESH_LOCK_NAME, () => refresh(expired)) : refresh(expired));
}

function browserLocks(): Locks | undefined {
  return typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : undefined;
}
