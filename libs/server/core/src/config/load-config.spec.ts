import { z } from 'zod';
import { ConfigError } from './config.error';
import { envPort } from './env-vars';
import { loadConfig } from './load-config';
import { serviceConfigSchema } from './service-config';

const schema = serviceConfigSchema({ serviceName: 'api', port: 3000 });

const validEnv = {
  DATABASE_URL: 'postgres://voltdepot:s3cret@db:5432/voltdepot',
  REDIS_URL: 'redis://redis:6379',
};

function problemsOf(env: Record<string, string | undefined>): string {
  try {
    loadConfig(schema, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig with the service schema', () => {
  it('applies defaults for everything optional', () => {
    expect(loadConfig(schema, validEnv)).toEqual({
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      SERVICE_NAME: 'api',
      SERVICE_VERSION: '0.0.0',
      PORT: 3000,
      DATABASE_URL: validEnv.DATABASE_URL,
      REDIS_URL: validEnv.REDIS_URL,
      BUS: 'redis',
      BUS_PREFIX: 'vd',
      BEHIND_TLS: false,
      TRUST_PROXY: [],
    });
  });

  it.each([
    ['loopback, 10.0.0.0/8, ::1, fd00::/8', ['loopback', '10.0.0.0/8', '::1', 'fd00::/8']],
    ['false', []],
  ])('reads TRUST_PROXY %j as the trusted proxies', (raw, expected) => {
    expect(loadConfig(schema, { ...validEnv, TRUST_PROXY: raw }).TRUST_PROXY).toEqual(expected);
  });

  it.each([
    [
      'true',
      "TRUST_PROXY: list the proxies' addresses (e.g. loopback or 10.0.0.0/8): trusting every peer lets any client choose its address",
    ],
    [
      'loopback, proxy.local, 10.0.0.0/33',
      "TRUST_PROXY: expected addresses, CIDR ranges or loopback/linklocal/uniquelocal, got 'proxy.local, 10.0.0.0/33'",
    ],
  ])('refuses TRUST_PROXY %j', (raw, problem) => {
    expect(problemsOf({ ...validEnv, TRUST_PROXY: raw })).toBe(`Invalid configuration:\n - ${problem}`);
  });

  it.each(['has space', 'a'.repeat(33), '-leading'])('refuses the bus prefix %j', (prefix) => {
    expect(() => loadConfig(schema, { ...validEnv, BUS_PREFIX: prefix })).toThrow(/BUS_PREFIX/);
  });

  it('parses numbers, enums and broker lists', () => {
    const config = loadConfig(schema, {
      ...validEnv,
      PORT: '8080',
      LOG_LEVEL: 'debug',
      NODE_ENV: 'production',
      BUS: 'kafka',
      KAFKA_BROKERS: 'kafka-1:9092, kafka-2:9092',
      SERVICE_NAME: 'api-blue',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      LOG_LEVEL: 'debug',
      NODE_ENV: 'production',
      BUS: 'kafka',
      KAFKA_BROKERS: ['kafka-1:9092', 'kafka-2:9092'],
      SERVICE_NAME: 'api-blue',
    });
  });

  it('ignores variables it does not know', () => {
    expect(loadConfig(schema, { ...validEnv, HOME: '/root' })).not.toHaveProperty('HOME');
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig(schema, { ...validEnv, PORT: '', KAFKA_BROKERS: '' }).PORT).toBe(3000);
    expect(problemsOf({ ...validEnv, DATABASE_URL: '' })).toBe(
      'Invalid configuration:\n - DATABASE_URL: required',
    );
  });

  it.each<[string, Record<string, string | undefined>, string[]]>([
    ['missing DATABASE_URL', { REDIS_URL: validEnv.REDIS_URL }, ['DATABASE_URL: required']],
    ['missing both URLs', {}, ['DATABASE_URL: required', 'REDIS_URL: required']],
    ['PORT not a number', { ...validEnv, PORT: 'abc' }, ["PORT: expected a number, got 'abc'"]],
    [
      'PORT out of range',
      { ...validEnv, PORT: '70000' },
      ["PORT: expected an integer between 1 and 65535, got '70000'"],
    ],
    [
      'PORT not an integer',
      { ...validEnv, PORT: '80.5' },
      ["PORT: expected an integer between 1 and 65535, got '80.5'"],
    ],
    ['unknown BUS', { ...validEnv, BUS: 'rabbit' }, ["BUS: expected one of 'redis', 'kafka', got 'rabbit'"]],
    [
      'unknown LOG_LEVEL',
      { ...validEnv, LOG_LEVEL: 'loud' },
      ["LOG_LEVEL: expected one of 'fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent', got 'loud'"],
    ],
    [
      'unknown NODE_ENV',
      { ...validEnv, NODE_ENV: 'staging' },
      ["NODE_ENV: expected one of 'development', 'test', 'production', got 'staging'"],
    ],
    [
      'DATABASE_URL with a wrong scheme',
      { ...validEnv, DATABASE_URL: 'mysql://root:pw@db/x' },
      ['DATABASE_URL: expected a postgres:// or postgresql:// URL'],
    ],
    [
      'REDIS_URL not a URL',
      { ...validEnv, REDIS_URL: 'localhost' },
      ['REDIS_URL: expected a redis:// or rediss:// URL'],
    ],
    ['BUS=kafka without brokers', { ...validEnv, BUS: 'kafka' }, ['KAFKA_BROKERS: required when BUS=kafka']],
    [
      'malformed KAFKA_BROKERS',
      { ...validEnv, BUS: 'kafka', KAFKA_BROKERS: 'kafka' },
      ["KAFKA_BROKERS: expected a comma-separated list of host:port, got 'kafka'"],
    ],
  ])('%s', (_case, env, expected) => {
    expect(problemsOf(env)).toBe(
      ['Invalid configuration:', ...expected.map((line) => ` - ${line}`)].join('\n'),
    );
  });

  it('names every bad variable in one message', () => {
    expect(problemsOf({ PORT: 'abc', BUS: 'rabbit' })).toBe(
      [
        'Invalid configuration:',
        " - PORT: expected a number, got 'abc'",
        ' - DATABASE_URL: required',
        ' - REDIS_URL: required',
        " - BUS: expected one of 'redis', 'kafka', got 'rabbit'",
      ].join('\n'),
    );
  });

  it('never echoes a URL value, which may hold a password', () => {
    const message = problemsOf({ ...validEnv, DATABASE_URL: 'mysql://root:hunter2@db/x' });
    expect(message).not.toContain('hunter2');
  });

  it('exposes the problems as data', () => {
    try {
      loadConfig(schema, { REDIS_URL: validEnv.REDIS_URL, PORT: 'x' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        { variable: 'PORT', reason: "expected a number, got 'x'" },
        { variable: 'DATABASE_URL', reason: 'required' },
      ]);
    }
  });

  it('accepts app-specific variables next to the base ones', () => {
    const gatewaySchema = serviceConfigSchema(
      { serviceName: 'ocpp-gateway', port: 3100 },
      { OCPP_PORT: envPort().default('9000'), OCPP_REALM: z.string() },
    );
    const config = loadConfig(gatewaySchema, { ...validEnv, OCPP_REALM: 'depot-1' });
    expect(config).toMatchObject({
      PORT: 3100,
      OCPP_PORT: 9000,
      OCPP_REALM: 'depot-1',
      SERVICE_NAME: 'ocpp-gateway',
    });
    expect(() => loadConfig(gatewaySchema, validEnv)).toThrow(' - OCPP_REALM: required');
  });
});
