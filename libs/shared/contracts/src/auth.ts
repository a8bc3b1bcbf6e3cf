/** Shapes of the sign-in endpoints (`/auth/*`). */

/** `GET /auth/captcha`. `testAnswer` is present only when the server runs with CAPTCHA_EXPOSE_ANSWER (never in production). */
export type CaptchaResponse = {
  captchaId: string;
  /** An SVG image as a `data:image/svg+xml;base64,...` URL. */
  image: string;
  /** Epoch milliseconds after which the code is rejected. */
  expiresAt: number;
  testAnswer?: string;
};

/** `POST /auth/totp/enroll`: scan `qrCode` (a PNG data URL) or type `secret` into an authenticator app. */
export type TotpEnrolment = { secret: string; otpauthUrl: string; qrCode: string };
/** `POST /auth/totp/activate`: shown once; each recovery code signs in once instead of a TOTP code. */
export type TotpActivation = { recoveryCodes: string[] };
/** `details` of AUTH_TOTP_ENROLMENT_REQUIRED: the ticket for the two `/auth/totp/enrolment/*` calls. */
export type TotpEnrolmentTicket = { enrolmentToken: string; expiresAt: number };
/** `POST /auth/totp/enrolment/complete`: the recovery codes (shown once) and the session. */
export type RequiredEnrolmentResult = TotpActivation & { session: SessionTokens };

/** The session token of the spec (`accessToken`, `expires` in epoch ms) plus the refresh token. */
export type SessionTokens = {
  accessToken: string;
  /** Epoch milliseconds at which the access token expires. */
  expires: number;
  refreshToken: string;
  /** Epoch milliseconds at which the refresh token (and the session) expires. */
  refreshExpires: number;
  tokenType: 'Bearer';
};

/** Error codes of sign-in, sessions and the shared auth guard. */
export const AuthErrorCodes = {
  /** 401: no bearer token on a protected route. */
  TokenMissing: 'AUTH_TOKEN_MISSING',
  /** 401: malformed token or bad signature. */
  TokenInvalid: 'AUTH_TOKEN_INVALID',
  /** 401: the access token has expired (refresh it). */
  TokenExpired: 'AUTH_TOKEN_EXPIRED',
  /** 401: the session was logged out, rotated away or revoked, or the user was disabled. */
  TokenRevoked: 'AUTH_TOKEN_REVOKED',
  /** 401: unknown, expired or revoked refresh token. */
  RefreshInvalid: 'AUTH_REFRESH_INVALID',
  /** 401: a rotated refresh token was presented again; the whole session family is revoked. */
  RefreshReused: 'AUTH_REFRESH_REUSED',
  /** 403: a required permission is missing, or the route has no access rule (deny by default). */
  PermissionDenied: 'FORBIDDEN',
  /** 400: verification code wrong, expired or already used. */
  CaptchaInvalid: 'AUTH_CAPTCHA_INVALID',
  /** 422: wrong user name or password. */
  InvalidCredentials: 'AUTH_INVALID_CREDENTIALS',
  /** 422: the account is disabled. */
  AccountDisabled: 'AUTH_ACCOUNT_DISABLED',
  /** 429: too many failed attempts for this account; temporarily locked. */
  AccountLocked: 'AUTH_ACCOUNT_LOCKED',
  /** 429: too many failed attempts from this address; temporarily throttled. */
  AddressThrottled: 'AUTH_ADDRESS_THROTTLED',
  /** 429: too many captchas fetched from this address; `details.retryAfterSeconds` (also Retry-After). */
  CaptchaThrottled: 'AUTH_CAPTCHA_THROTTLED',
  /** 422: the account has TOTP: send `totpCode` (get a new captcha first). */
  TotpRequired: 'AUTH_TOTP_REQUIRED',
  /** 422: wrong, reused or expired TOTP / recovery code. */
  TotpInvalid: 'AUTH_TOTP_INVALID',
  /** 422: activate called without a pending enrolment, or enrol while TOTP is already on. */
  TotpState: 'AUTH_TOTP_STATE',
  /** 422: password and captcha were right, but this administrator must set up TOTP first; details carry the ticket. */
  TotpEnrolmentRequired: 'AUTH_TOTP_ENROLMENT_REQUIRED',
  /** 422: the enrolment ticket is unknown, used up or expired (sign in again). */
  TotpEnrolmentInvalid: 'AUTH_TOTP_ENROLMENT_INVALID',
  /** 422: the current password given to change-password is wrong. */
  WrongPassword: 'AUTH_WRONG_PASSWORD',
} as const;
export type AuthErrorCode = (typeof AuthErrorCodes)[keyof typeof AuthErrorCodes];
