import { apiPath, type ApiBody, type ApiResponse, type SessionTokens } from '@voltdepot/console-api-client';
import { request, type SessionToken } from '../../request';

/** The Core API's sign-in and current-user calls (docs/identity-and-access.md), typed by its generated client. */
export const authApi = {
  captcha: (signal?: AbortSignal) =>
    request.get<ApiResponse<'AuthController_getCaptcha'>>(apiPath('AuthController_getCaptcha'), { signal }),
  login: (body: ApiBody<'AuthController_login'>) =>
    request.post<ApiResponse<'AuthController_login'>>(apiPath('AuthController_login'), body),
  /** Revokes the session server-side (idempotent, public); the refresh token names it even when the access token expired. */
  logout: (refreshToken: string | undefined) =>
    request.post<ApiResponse<'AuthController_logout'>>(
      apiPath('AuthController_logout'),
      (refreshToken ? { refreshToken } : {}) satisfies ApiBody<'AuthController_logout'>,
    ),
  currentUser: (signal?: AbortSignal) =>
    request.get<ApiResponse<'CurrentUserController_info'>>(apiPath('CurrentUserController_info'), { signal }),
  menus: (signal?: AbortSignal) =>
    request.get<ApiResponse<'CurrentUserController_menus'>>(apiPath('CurrentUserController_menus'), {
      signal,
    }),
  permissions: (signal?: AbortSignal) =>
    request.get<ApiResponse<'CurrentUserController_permissions'>>(
      apiPath('CurrentUserController_permissions'),
      {
        signal,
      },
    ),
  userExt: (signal?: AbortSignal) =>
    request.get<ApiResponse<'CurrentUserController_ext'>>(apiPath('CurrentUserController_ext'), { signal }),
  changePassword: (body: ApiBody<'CurrentUserController_changePassword'>) =>
    request.put<ApiResponse<'CurrentUserController_changePassword'>>(
      apiPath('CurrentUserController_changePassword'),
      body,
    ),
};

/** What the console keeps of a sign-in answer. */
export function toSessionToken(tokens: SessionTokens): SessionToken {
  return { accessToken: tokens.accessToken, expires: tokens.expires, refreshToken: tokens.refreshToken };
}
