import { ConfigError, loadConfig } from '@voltdepot/server-core';
import { apiConfigSchema, DEV_JWT_SECRET } from './app.config';

const base = { DATABASE_URL: 'postgres://postgres@localhost/x', REDIS_URL: 'redis://localhost' };

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(apiConfigSchema, { ...base, ...env });
    return [];
  } catch (error) {
    return (error as ConfigError).problems.map((p) => `${p.variable}: ${p.reason}`);
  }
}

describe('api configuration', () => {
  it('outside production, a missing JWT_SECRET falls back to the flagged development secret', () => {
    const config = loadConfig(apiConfigSchema, base);
    expect(config.JWT_SECRET).toBe(DEV_JWT_SECRET);
    expect(config.JWT_SECRET_IS_DEV_DEFAULT).toBe(true);
    expect(config.DEMO_DATA).toBe(true);
    expect(config.CAPTCHA_EXPOSE_ANSWER).toBe(false);
    expect(config.BILLING_LOST_STOP_MINUTES).toBe(10);
    expect(config.API_WORKER_PORT).toBe(3001);
    expect(config.API_QUEUE_PREFIX).toBe('vd-api');
  });

  it.each([
    [
      { NODE_ENV: 'production' },
      [
        'PILE_PASSWORD_KEY: required when NODE_ENV=production',
        'JWT_SECRET: required when NODE_ENV=production',
      ],
    ],
    [
      { NODE_ENV: 'production', PILE_PASSWORD_KEY: 'p'.repeat(32) },
      ['JWT_SECRET: required when NODE_ENV=production'],
    ],
    [
      { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) },
      ['PILE_PASSWORD_KEY: required when NODE_ENV=production'],
    ],
    [{ PILE_PASSWORD_KEY: 'too-short' }, ['PILE_PASSWORD_KEY: must have at least 32 characters']],
    [
      {
        NODE_ENV: 'production',
        JWT_SECRET: 'x'.repeat(32),
        PILE_PASSWORD_KEY: 'p'.repeat(32),
        CAPTCHA_EXPOSE_ANSWER: 'true',
      },
      ['CAPTCHA_EXPOSE_ANSWER: is a test-only switch and cannot be enabled when NODE_ENV=production'],
    ],
    [{ JWT_SECRET: 'too-short' }, ['JWT_SECRET: must have at least 32 characters']],
    [
      { ACCESS_TOKEN_TTL_SECONDS: '5' },
      ["ACCESS_TOKEN_TTL_SECONDS: expected an integer between 30 and 86400, got '5'"],
    ],
    [
      { BILLING_LOST_STOP_MINUTES: '0' },
      ["BILLING_LOST_STOP_MINUTES: expected an integer between 1 and 1440, got '0'"],
    ],
    [{ BILLING_LOST_STOP_MINUTES: 'ten' }, ["BILLING_LOST_STOP_MINUTES: expected a number, got 'ten'"]],
    [{ API_WORKER_PORT: '0' }, ["API_WORKER_PORT: expected an integer between 1 and 65535, got '0'"]],
    [{ API_QUEUE_PREFIX: 'vd:api' }, ['API_QUEUE_PREFIX: letters, digits, _ and - only']],
  ])('%j -> %j', (env, expected) => {
    expect(problems(env)).toEqual(expected);
  });

  it('production with a secret: no demo data, no captcha answers', () => {
    const config = loadConfig(apiConfigSchema, {
      ...base,
      NODE_ENV: 'production',
      JWT_SECRET: 's'.repeat(40),
      PILE_PASSWORD_KEY: 'p'.repeat(40),
    });
    expect(config).toMatchObject({
      JWT_SECRET_IS_DEV_DEFAULT: false,
      DEMO_DATA: false,
      CAPTCHA_EXPOSE_ANSWER: false,
      OPENAPI_DOCS: false,
      ADMIN_TOTP_REQUIRED_BY_DEFAULT: true,
    });
  });

  it.each([
    [{ NODE_ENV: 'production', DEMO_DATA: 'true' }, false],
    [{ NODE_ENV: 'production', DEMO_DATA: 'false' }, true],
    [{ NODE_ENV: 'development' }, false],
    [{ NODE_ENV: 'test', DEMO_DATA: 'false' }, false],
  ])('%j: the second factor is mandatory for administrators by default: %s', (env, expected) => {
    const config = loadConfig(apiConfigSchema, {
      ...base,
      JWT_SECRET: 's'.repeat(40),
      PILE_PASSWORD_KEY: 'p'.repeat(40),
      ...env,
    });
    expect(config.ADMIN_TOTP_REQUIRED_BY_DEFAULT).toBe(expected);
  });
});
