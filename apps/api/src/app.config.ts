import {
  envBoolean,
  envInt,
  envPort,
  MIN_JWT_SECRET_LENGTH,
  serviceConfigSchema,
} from '@voltdepot/server-core';
import { checkPilePasswordKey, pilePasswordConfigShape } from '@voltdepot/server-pile-credentials';
import { z } from 'zod';

/** Used only outside production when JWT_SECRET is unset; start-up logs a warning when it is. */
export const DEV_JWT_SECRET = 'voltdepot-development-only-jwt-secret-do-not-use';

/**
 * The api's environment. Beyond the common service variables:
 * - JWT_SECRET (required in production, at least 32 characters): HS256 key of the access tokens,
 *   shared with every service that verifies them (msg-center, gateway).
 * - ACCESS_TOKEN_TTL_SECONDS (1800), REFRESH_TOKEN_TTL_SECONDS (604800), CAPTCHA_TTL_SECONDS (120).
 * - CAPTCHA_EXPOSE_ANSWER (false): test-only, puts the captcha answer in the response; refused in production.
 * - AUTH_MAX_ACCOUNT_FAILURES (5), AUTH_MAX_ADDRESS_FAILURES (20), AUTH_FAILURE_WINDOW_SECONDS (900),
 *   AUTH_LOCK_SECONDS (900): brute-force throttling.
 * - AUTH_REDIS_KEY_PREFIX ('auth:'): must match in every service sharing sessions.
 * - PLATFORM_CONFIG_KEY: passphrase of the platform-config list encryption (the console has it too).
 * - DEMO_DATA (true outside production): create the demo users at start-up.
 * - CAPTCHA_MAX_PER_ADDRESS (30) captchas per CAPTCHA_RATE_WINDOW_SECONDS (60) from one client address;
 *   more is a 429 with Retry-After. The address is the peer's, or what a proxy in TRUST_PROXY (every
 *   service's list of trusted proxies) forwards.
 * - TOTP_ISSUER ('Voltdepot'); TOTP_ENCRYPTION_KEY (defaults to JWT_SECRET): encrypts TOTP secrets at rest;
 *   changing it makes enrolled users unable to sign in with TOTP until an administrator resets it.
 * - OPENAPI_DOCS (true outside production): serve /api/docs and /api/docs-json (no token needed).
 * - OCPP_REDIS_PREFIX ('vd'): the OCPP gateway's Redis prefix; pile commands travel on its command channel.
 * - BILLING_LOST_STOP_MINUTES (10, 1..1440): a stop whose start has not arrived after this long is held
 *   as an abnormal "lost record" order.
 * - LEDGER_MINIMUM_BALANCE_FEN (1, 0..100000000): a prepaid card whose account holds less (fen) is
 *   Blocked at the pile (also when frozen or owing arrears); 1: an empty account is blocked.
 * - API_WORKER_PORT (3001): the worker process (worker.main.ts) serves /health and /metrics here, nothing else.
 * - API_QUEUE_PREFIX ('vd-api'): Redis key prefix of the api's BullMQ job queues; the same in every
 *   replica of the worker, distinct per deployment sharing a Redis.
 * - PILE_PASSWORD_KEY (required in production; a development key elsewhere, with a warning), with
 *   PILE_PASSWORD_KEY_ID and PILE_PASSWORD_PREVIOUS_KEYS: the key of the pile passwords the api stores,
 *   the same as the OCPP gateway's, which verifies them (@voltdepot/server-pile-credentials).
 */
export const apiConfigSchema = serviceConfigSchema(
  { serviceName: 'api', port: 3000 },
  {
    JWT_SECRET: z
      .string()
      .min(MIN_JWT_SECRET_LENGTH, `must have at least ${MIN_JWT_SECRET_LENGTH} characters`)
      .optional(),
    ACCESS_TOKEN_TTL_SECONDS: envInt({ min: 30, max: 86_400 }).default('1800'),
    REFRESH_TOKEN_TTL_SECONDS: envInt({ min: 60, max: 90 * 86_400 }).default('604800'),
    CAPTCHA_TTL_SECONDS: envInt({ min: 1, max: 3600 }).default('120'),
    CAPTCHA_EXPOSE_ANSWER: envBoolean().default('false'),
    CAPTCHA_MAX_PER_ADDRESS: envInt({ min: 1, max: 100_000 }).default('30'),
    CAPTCHA_RATE_WINDOW_SECONDS: envInt({ min: 1, max: 86_400 }).default('60'),
    AUTH_MAX_ACCOUNT_FAILURES: envInt({ min: 1, max: 1000 }).default('5'),
    AUTH_MAX_ADDRESS_FAILURES: envInt({ min: 1, max: 100_000 }).default('20'),
    AUTH_FAILURE_WINDOW_SECONDS: envInt({ min: 1, max: 86_400 }).default('900'),
    AUTH_LOCK_SECONDS: envInt({ min: 1, max: 86_400 }).default('900'),
    AUTH_REDIS_KEY_PREFIX: z.string().min(1).max(64).default('auth:'),
    PLATFORM_CONFIG_KEY: z.string().min(8).default('voltdepot-platform-config'),
    DEMO_DATA: envBoolean().optional(),
    OPENAPI_DOCS: envBoolean().optional(),
    OCPP_REDIS_PREFIX: z.string().min(1).default('vd'),
    BILLING_LOST_STOP_MINUTES: envInt({ min: 1, max: 1440 }).default('10'),
    LEDGER_MINIMUM_BALANCE_FEN: envInt({ min: 0, max: 100_000_000 }).default('1'),
    API_WORKER_PORT: envPort().default('3001'),
    API_QUEUE_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
      .max(64)
      .default('vd-api'),
    TOTP_ISSUER: z.string().min(1).max(64).default('Voltdepot'),
    TOTP_ENCRYPTION_KEY: z
      .string()
      .min(MIN_JWT_SECRET_LENGTH, `must have at least ${MIN_JWT_SECRET_LENGTH} characters`)
      .optional(),
    ...pilePasswordConfigShape,
  },
)
  .superRefine(checkPilePasswordKey)
  .superRefine((c, ctx) => {
    if (c.NODE_ENV === 'production' && c.JWT_SECRET === undefined) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['JWT_SECRET'],
        message: 'required when NODE_ENV=production',
      });
    }
    if (c.NODE_ENV === 'production' && c.CAPTCHA_EXPOSE_ANSWER) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['CAPTCHA_EXPOSE_ANSWER'],
        message: 'is a test-only switch and cannot be enabled when NODE_ENV=production',
      });
    }
  })
  .transform((c) => ({
    ...c,
    JWT_SECRET: c.JWT_SECRET ?? DEV_JWT_SECRET,
    /** True when the development secret is in use (logged at start-up). */
    JWT_SECRET_IS_DEV_DEFAULT: c.JWT_SECRET === undefined,
    DEMO_DATA: c.DEMO_DATA ?? c.NODE_ENV !== 'production',
    /**
     * A production deployment without demo data makes the second factor mandatory for administrators
     * (adminTotpRequired) unless an administrator has set it; the demo keeps its password-only sign-in.
     */
    ADMIN_TOTP_REQUIRED_BY_DEFAULT: c.NODE_ENV === 'production' && !(c.DEMO_DATA ?? false),
    OPENAPI_DOCS: c.OPENAPI_DOCS ?? c.NODE_ENV !== 'production',
    TOTP_ENCRYPTION_KEY: c.TOTP_ENCRYPTION_KEY ?? c.JWT_SECRET ?? DEV_JWT_SECRET,
  }));

export type ApiConfig = z.output<typeof apiConfigSchema>;
