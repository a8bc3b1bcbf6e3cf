import { z } from 'zod';
import {
  checkPilePasswordKey,
  DEV_PILE_PASSWORD_KEY_ID,
  pilePasswordConfigShape,
  pilePasswordHasherFromEnv,
  pilePasswordHasherOf,
} from './pile-password.config';

const schema = z
  .object({ NODE_ENV: z.string().default('development'), ...pilePasswordConfigShape })
  .superRefine(checkPilePasswordKey);
const KEY = 'a-pile-password-key-of-32-characters!';

const issues = (env: Record<string, string>) =>
  schema.safeParse(env).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

describe('pile password configuration', () => {
  it('outside production, the development key (id "dev") when PILE_PASSWORD_KEY is unset', () => {
    const { hasher, usesDevelopmentKey } = pilePasswordHasherOf(schema.parse({}));
    expect(usesDevelopmentKey).toBe(true);
    expect(hasher.hash('x').split('$')[2]).toBe(DEV_PILE_PASSWORD_KEY_ID);
  });

  it('in production the key is required', () => {
    expect(issues({ NODE_ENV: 'production' })).toEqual([
      'PILE_PASSWORD_KEY: required when NODE_ENV=production',
    ]);
    expect(issues({ NODE_ENV: 'production', PILE_PASSWORD_KEY: KEY })).toEqual([]);
  });

  it.each([
    [{ PILE_PASSWORD_KEY: 'short' }, 'PILE_PASSWORD_KEY: must have at least 32 characters'],
    [{ PILE_PASSWORD_KEY_ID: 'a$b' }, 'PILE_PASSWORD_KEY_ID: 1 to 16 letters, digits, _ or -'],
    [{ PILE_PASSWORD_KEY_ID: 'dev' }, "PILE_PASSWORD_KEY_ID: 'dev' is the development key's id"],
    [
      { PILE_PASSWORD_PREVIOUS_KEYS: 'old-without-secret' },
      expect.stringMatching(/^PILE_PASSWORD_PREVIOUS_KEYS: expected/),
    ],
    [
      { PILE_PASSWORD_PREVIOUS_KEYS: `0:short` },
      expect.stringMatching(/^PILE_PASSWORD_PREVIOUS_KEYS: expected/),
    ],
  ])('refuses %j', (env, message) => {
    expect(issues(env)).toEqual([message]);
  });

  it('hashes under the configured key id and still accepts the previous keys', async () => {
    const before = pilePasswordHasherOf(
      schema.parse({ PILE_PASSWORD_KEY: KEY, PILE_PASSWORD_KEY_ID: 'k1' }),
    ).hasher;
    const old = before.hash('pile-secret-0123456789');
    expect(old.split('$')[2]).toBe('k1');
    const after = pilePasswordHasherOf(
      schema.parse({
        PILE_PASSWORD_KEY: `${KEY}-rotated`,
        PILE_PASSWORD_KEY_ID: 'k2',
        PILE_PASSWORD_PREVIOUS_KEYS: `k1:${KEY}`,
      }),
    ).hasher;
    expect((await after.verify(old, 'pile-secret-0123456789')).match).toBe(true);
  });

  it('tools read the same variables from the environment and refuse what the services refuse', () => {
    expect(pilePasswordHasherFromEnv({ PILE_PASSWORD_KEY: KEY }).hash('x').split('$')[2]).toBe('1');
    expect(() => pilePasswordHasherFromEnv({ NODE_ENV: 'production' })).toThrow(
      'invalid pile password configuration: PILE_PASSWORD_KEY: required when NODE_ENV=production',
    );
  });
});
