/** What the identity area needs from the service's configuration; the api builds it from its env. */
export type IdentityOptions = {
  jwtSecret: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  captchaTtlSeconds: number;
  /** Test-only: the captcha response carries its answer. The api refuses it when NODE_ENV=production. */
  exposeCaptchaAnswer: boolean;
  /** Captchas one client address may fetch per window (then 429 with Retry-After). */
  captchaRate: { maxPerAddress: number; windowSeconds: number };
  redisUrl: string;
  /** Same prefix as the shared AuthGuardModule, so both see the same sessions. */
  redisKeyPrefix: string;
  throttle: {
    /** Failed logins of one account within the window before it is locked. */
    maxAccountFailures: number;
    /** Failed logins from one address within the window before it is throttled. */
    maxAddressFailures: number;
    windowSeconds: number;
    lockSeconds: number;
  };
  /** Passphrase of the platform-config encryption (shared with the console; not a secret). */
  platformConfigKey: string;
  /** Issuer shown in authenticator apps. */
  totpIssuer: string;
  /** Key (any length; SHA-256 is applied) encrypting TOTP secrets at rest. */
  totpEncryptionKey: string;
  /** Create the demo users at start-up (idempotent). */
  seedDemoData: boolean;
  /**
   * Turn `adminTotpRequired` on at start-up unless an administrator has set it: a production deployment
   * without demo data (the demo keeps its documented password-only sign-in).
   */
  adminTotpRequiredByDefault: boolean;
};

export const IDENTITY_OPTIONS = Symbol('IDENTITY_OPTIONS');
/** The identity area's ioredis client (key prefix applied). */
export const IDENTITY_REDIS = Symbol('IDENTITY_REDIS');
