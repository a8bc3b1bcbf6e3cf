import { z } from 'zod';
import { PILE_PASSWORD_KEY_ID, PilePasswordHasher, type PilePasswordKey } from './pile-password-hasher';

/** Used only outside production when PILE_PASSWORD_KEY is unset; start-up logs a warning when it is. */
export const DEV_PILE_PASSWORD_KEY = 'voltdepot-development-only-pile-password-key-do-not-use';
/** The development key's id: a hash made with it is refused by a process that has a real key. */
export const DEV_PILE_PASSWORD_KEY_ID = 'dev';

export const MIN_PILE_PASSWORD_KEY_LENGTH = 32;

const keySecret = z
  .string()
  .min(MIN_PILE_PASSWORD_KEY_LENGTH, `must have at least ${MIN_PILE_PASSWORD_KEY_LENGTH} characters`);

/** `id:secret,id:secret` (secrets without commas); the value is never echoed. */
function envKeyList() {
  return z.string().transform((raw, ctx) => {
    const keys: PilePasswordKey[] = [];
    for (const item of raw.split(',').map((entry) => entry.trim())) {
      if (item === '') continue;
      const colon = item.indexOf(':');
      const id = item.slice(0, Math.max(colon, 0));
      const secret = item.slice(colon + 1);
      if (colon < 0 || !PILE_PASSWORD_KEY_ID.test(id) || secret.length < MIN_PILE_PASSWORD_KEY_LENGTH) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `expected comma-separated id:secret pairs (id of 1-16 letters, digits, _ or -; secret of at least ${MIN_PILE_PASSWORD_KEY_LENGTH} characters)`,
        });
        return z.NEVER;
      }
      keys.push({ id, secret });
    }
    return keys;
  });
}

/**
 * The pile password key, in the environment of every process that writes or verifies pile passwords
 * (api and gateway, the same values in both):
 * - PILE_PASSWORD_KEY (required in production, at least 32 characters): the HMAC key of pile passwords.
 *   Elsewhere a built-in development key is used (with a warning at start-up).
 * - PILE_PASSWORD_KEY_ID ('1'): written into every hash, so that the key can be rotated.
 * - PILE_PASSWORD_PREVIOUS_KEYS: `id:secret,...`, keys whose hashes are still accepted; the gateway
 *   stores a pile's password again under the current key at its next successful connection.
 */
export const pilePasswordConfigShape = {
  PILE_PASSWORD_KEY: keySecret.optional(),
  PILE_PASSWORD_KEY_ID: z
    .string()
    .regex(PILE_PASSWORD_KEY_ID, '1 to 16 letters, digits, _ or -')
    .refine(
      (id) => id !== DEV_PILE_PASSWORD_KEY_ID,
      `'${DEV_PILE_PASSWORD_KEY_ID}' is the development key's id`,
    )
    .default('1'),
  PILE_PASSWORD_PREVIOUS_KEYS: envKeyList().optional(),
};

export type PilePasswordEnv = {
  NODE_ENV?: string;
  PILE_PASSWORD_KEY?: string;
  PILE_PASSWORD_KEY_ID?: string;
  PILE_PASSWORD_PREVIOUS_KEYS?: PilePasswordKey[];
};

/** PILE_PASSWORD_KEY is required in production (spread the shape, then `.superRefine(checkPilePasswordKey)`). */
export function checkPilePasswordKey(config: PilePasswordEnv, ctx: z.RefinementCtx): void {
  if (config.NODE_ENV === 'production' && config.PILE_PASSWORD_KEY === undefined) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['PILE_PASSWORD_KEY'],
      message: 'required when NODE_ENV=production',
    });
  }
}

/** The hasher of a validated configuration, and whether it runs on the development key. */
export function pilePasswordHasherOf(config: PilePasswordEnv): {
  hasher: PilePasswordHasher;
  usesDevelopmentKey: boolean;
} {
  const current: PilePasswordKey =
    config.PILE_PASSWORD_KEY === undefined
      ? { id: DEV_PILE_PASSWORD_KEY_ID, secret: DEV_PILE_PASSWORD_KEY }
      : { id: config.PILE_PASSWORD_KEY_ID ?? '1', secret: config.PILE_PASSWORD_KEY };
  return {
    hasher: new PilePasswordHasher(current, config.PILE_PASSWORD_PREVIOUS_KEYS ?? []),
    usesDevelopmentKey: config.PILE_PASSWORD_KEY === undefined,
  };
}

/** Logged at start-up by a service running on the development key. */
export const DEV_PILE_PASSWORD_KEY_WARNING =
  'PILE_PASSWORD_KEY is not set: using the built-in development key for pile passwords (never do this in production)';

const envSchema = z
  .object({ NODE_ENV: z.string().optional(), ...pilePasswordConfigShape })
  .superRefine(checkPilePasswordKey);

/**
 * For tools and tests outside a service (demo data, the simulator's registration, benchmarks, system
 * tests): the pile password variables of the process environment, validated as the services validate them.
 */
export function pilePasswordEnvFrom(env: NodeJS.ProcessEnv = process.env): PilePasswordEnv {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`invalid pile password configuration: ${issues.join('; ')}`);
  }
  const { NODE_ENV: _nodeEnv, ...variables } = parsed.data;
  return variables;
}

/** The hasher of the process environment (see pilePasswordEnvFrom). */
export function pilePasswordHasherFromEnv(env: NodeJS.ProcessEnv = process.env): PilePasswordHasher {
  return pilePasswordHasherOf(pilePasswordEnvFrom(env)).hasher;
}
