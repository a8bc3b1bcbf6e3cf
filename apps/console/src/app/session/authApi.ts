import { apiPath } from '@voltdepot/console-api-client';
import type {
  CaptchaResponse,
  ChangeOwnPasswordRequest,
  CurrentUserInfo,
  LoginRequest,
  ResourceNode,
  SessionTokens,
  UserExt,
} from '@voltdepot/shared-contracts';
import { request, type SessionToken } from '../../request';

/** The Core API's sign-in and current-user calls (docs/identity-and-access.md). */
export const authApi = {
  captcha: (signal?: AbortSignal) =>
    request.get<CaptchaResponse>(apiPath('AuthController_getCaptcha'), { signal }),
  login: (body: LoginRequest) => request.post<SessionTokens>(apiPath('AuthController_login'), body),
  /** Revokes the session server-side (idempotent, public); the refresh token names it even when the access token expired. */
  logout: (refreshToken: string | undefined) =>
    request.post<void>(apiPath('AuthController_logout'), refreshToken ? { refreshToken } : {}),
  currentUser: (signal?: AbortSignal) =>
    request.get<CurrentUserInfo>(apiPath('CurrentUserController_info'), { signal }),
  menus: (signal?: AbortSignal) =>
    request.get<ResourceNode[]>(apiPath('CurrentUserController_menus'), { signal }),
  permissions: (signal?: AbortSignal) =>
    request.get<string[]>(apiPath('CurrentUserController_permissions'), { signal }),
  userExt: (signal?: AbortSignal) => request.get<UserExt>(apiPath('CurrentUserController_ext'), { signal }),
  changePassword: (body: ChangeOwnPasswordRequest) =>
    request.put<void>(apiPath('CurrentUserController_changePassword'), body),
};

/** What the console keeps of a sign-in answer. */
export function toSessionToken(tokens: SessionTokens): SessionToken {
  return { accessToken: tokens.accessToken, expires: tokens.expires, refreshToken: tokens.refreshToken };
}
