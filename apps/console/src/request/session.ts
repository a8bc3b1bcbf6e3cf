/**
 * The signed-in session (spec §3 "Session token"). `expires` is the expiry instant of the access token in
 * epoch milliseconds; `refreshToken` (from `/auth/login` and `/auth/refresh`) exchanges it for a new one.
 */
export type SessionToken = { accessToken: string; expires: number; refreshToken?: string };

export type SessionStore = {
  get(): SessionToken | null;
  set(token: SessionToken): void;
  clear(): void;
  /** Called with the new token, or null when the session ends. Returns the unsubscribe function. */
  subscribe(listener: (token: SessionToken | null) => void): () => void;
};

export const SESSION_STORAGE_KEY = 'voltdepot.session';

type SessionStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** A token is refreshed once its expiry time has passed (spec §9). */
export function isTokenExpired(token: SessionToken, now: number): boolean {
  return token.expires <= now;
}

/** Session kept in localStorage (or in memory when there is none), so it survives a reload. */
export function createSessionStore(storage: SessionStorage | undefined = browserStorage()): SessionStore {
  let memory: SessionToken | null = null;
  const listeners = new Set<(token: SessionToken | null) => void>();
  const emit = (token: SessionToken | null) => listeners.forEach((listener) => listener(token));

  return {
    get() {
      if (!storage) return memory;
      return parseSession(storage.getItem(SESSION_STORAGE_KEY));
    },
    set(token) {
      memory = token;
      storage?.setItem(SESSION_STORAGE_KEY, JSON.stringify(token));
      emit(token);
    },
    clear() {
      memory = null;
      storage?.removeItem(SESSION_STORAGE_KEY);
      emit(null);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function parseSession(raw: string | null): SessionToken | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (
      typeof value === 'object' &&
      value !== null &&
      'accessToken' in value &&
      'expires' in value &&
      typeof value.accessToken === 'string' &&
      value.accessToken !== '' &&
      typeof value.expires === 'number'
    ) {
      const token: SessionToken = { accessToken: value.accessToken, expires: value.expires };
      if ('refreshToken' in value && typeof value.refreshToken === 'string' && value.refreshToken !== '') {
        token.refreshToken = value.refreshToken;
      }
      return token;
    }
  } catch {
    // fall through: a damaged entry is no session
  }
  return null;
}

function browserStorage(): SessionStorage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}
