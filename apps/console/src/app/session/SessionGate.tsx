import { useQuery } from '@tanstack/react-query';
import { GuardedButton, PermissionProvider } from '@voltdepot/console-ui';
import { Result } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { LOGIN_PATH } from '../../request';
import { PageLoading } from '../layout/PageLoading';
import { authApi } from './authApi';
import { CurrentUserContext, type CurrentUser } from './CurrentUserContext';
import { sessionQueryKeys } from './queryKeys';
import { useAccessToken } from './useSession';

/** Where the login page sends the user back to after signing in. */
export type LoginLocationState = { from?: string };

/** No answer at all (network down, time-out): the request layer resolves undefined; a query must fail. */
function required<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('no answer');
  return value;
}

/**
 * Route guard of every signed-in page: without a token it sends the browser to /login (a client-side
 * navigation, so no request is made and nothing reloads); with one it loads the user, permissions and
 * menus before rendering. A 401 while loading ends the session through the request layer.
 */
export function SessionGate() {
  const token = useAccessToken();
  const location = useLocation();
  if (!token) {
    const state: LoginLocationState = { from: `${location.pathname}${location.search}` };
    return <Navigate to={LOGIN_PATH} replace state={state} />;
  }
  return <CurrentUserLoader />;
}

function CurrentUserLoader() {
  const { t } = useTranslation();
  const user = useQuery({
    queryKey: sessionQueryKeys.currentUser(),
    queryFn: async ({ signal }) => required(await authApi.currentUser(signal)),
    staleTime: Infinity,
  });
  const menus = useQuery({
    queryKey: sessionQueryKeys.menus(),
    queryFn: async ({ signal }) => required(await authApi.menus(signal)),
    staleTime: Infinity,
  });
  const value = useMemo<CurrentUser | null>(
    () => (user.data && menus.data ? { user: user.data, menus: menus.data } : null),
    [user.data, menus.data],
  );

  if (user.isError || menus.isError) {
    return (
      <Result
        status="warning"
        title={t('session.loadFailed')}
        subTitle={t('session.loadFailedHint')}
        extra={
          <GuardedButton type="primary" onClick={() => Promise.all([user.refetch(), menus.refetch()])}>
            {t('common.retry')}
          </GuardedButton>
        }
      />
    );
  }
  if (!value) return <PageLoading />;
  return (
    <CurrentUserContext.Provider value={value}>
      <PermissionProvider permissions={value.user.permissions}>
        <Outlet />
      </PermissionProvider>
    </CurrentUserContext.Provider>
  );
}
