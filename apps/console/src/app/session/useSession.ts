import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router-dom';
import { LOGIN_PATH, SESSION_STORAGE_KEY, sessionStore } from '../../request';
import { authApi } from './authApi';

function subscribe(onChange: () => void): () => void {
  const unsubscribe = sessionStore.subscribe(onChange);
  // Another tab signed in or out.
  const onStorage = (event: StorageEvent) => {
    if (event.key === SESSION_STORAGE_KEY || event.key === null) onChange();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    unsubscribe();
    window.removeEventListener('storage', onStorage);
  };
}

/** The current access token (null when signed out); re-renders on sign-in, refresh and sign-out. */
export function useAccessToken(): string | null {
  return useSyncExternalStore(subscribe, () => sessionStore.get()?.accessToken ?? null);
}

/** Signs out: revokes the session on the server (best effort), forgets it here, goes to /login. */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    const token = sessionStore.get();
    try {
      await authApi.logout(token?.refreshToken);
    } catch {
      // The session ends in this browser whatever the server said.
    }
    sessionStore.clear();
    queryClient.clear();
    await navigate(LOGIN_PATH, { replace: true });
  }, [navigate, queryClient]);
}
