import { z } from 'zod';
import { envBoolean, envHostPortList, envPort, envProxyList, envUrl } from './env-vars';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const BUS_KINDS = ['redis', 'kafka'] as const;
export type BusKind = (typeof BUS_KINDS)[number];

export type ServiceDefaults = {
  /** Used when SERVICE_NAME is unset; appears on every log line and in /health. */
  serviceName: string;
  /** HTTP port used when PORT is unset. */
  port: number;
};

/**
 * The variables every Voltdepot service reads. Spread it into an app's own `z.object`
 * when it needs more, or use `serviceConfigSchema`, which also applies the cross-field rules.
 */
export function serviceConfigShape(defaults: ServiceDefaults) {
  return {
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
    SERVICE_NAME: z.string().min(1).default(defaults.serviceName),
    SERVICE_VERSION: z.string().min(1).default('0.0.0'),
    PORT: envPort().default(String(defaults.port)),
    DATABASE_URL: envUrl(['postgres', 'postgresql']),
    REDIS_URL: envUrl(['redis', 'rediss']),
    BUS: z.enum(BUS_KINDS).default('redis'),
    KAFKA_BROKERS: envHostPortList().optional(),
    /** Prefix of bus streams/topics, so deployments and test runs can share one Redis or Kafka. */
    BUS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/, 'letters, digits, _ and - only (at most 32)')
      .default('vd'),
    /** A TLS-terminating proxy in front serves every request over HTTPS: answers carry HSTS. */
    BEHIND_TLS: envBoolean().default('false'),
    /**
     * The reverse proxies (addresses, CIDR ranges, loopback) whose X-Forwarded-For gives the client's
     * address; none by default, so a client cannot name its own.
     */
    TRUST_PROXY: envProxyList().default(''),
    /**
     * Bearer token /metrics asks for (Prometheus: `authorization: { credentials: ... }`); the same in every
     * service of a deployment, so msg-center's alert checks can scrape them.
     */
    METRICS_TOKEN: z.string().min(16, 'must have at least 16 characters').optional(),
    /** Without METRICS_TOKEN, serve /metrics to anyone (default outside production) or to nobody. */
    METRICS_PUBLIC: envBoolean().optional(),
  };
}

/** KAFKA_BROKERS is needed only when the bus is Kafka. */
export function requireKafkaBrokersForKafkaBus(
  config: { BUS: BusKind; KAFKA_BROKERS?: string[] },
  ctx: z.RefinementCtx,
): void {
  if (config.BUS === 'kafka' && (config.KAFKA_BROKERS === undefined || config.KAFKA_BROKERS.length === 0)) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['KAFKA_BROKERS'],
      message: 'required when BUS=kafka',
    });
  }
}

type BaseShape = ReturnType<typeof serviceConfigShape>;

/**
 * The base service schema plus an app's own variables, with the cross-field rules applied.
 *
 * ```ts
 * export const gatewayConfigSchema = serviceConfigSchema(
 *   { serviceName: 'ocpp-gateway', port: 3100 },
 *   { OCPP_PORT: envPort().default('9000') },
 * );
 * export type GatewayConfig = z.output<typeof gatewayConfigSchema>;
 * ```
 */
export function serviceConfigSchema<Extra extends z.ZodRawShape = Record<never, never>>(
  defaults: ServiceDefaults,
  extra?: Extra,
) {
  const shape = { ...serviceConfigShape(defaults), ...extra } as BaseShape & Extra;
  return z
    .object(shape)
    .superRefine((config, ctx) =>
      requireKafkaBrokersForKafkaBus(config as { BUS: BusKind; KAFKA_BROKERS?: string[] }, ctx),
    );
}

/** What every service's validated configuration contains. */
export type ServiceConfig = z.output<z.ZodObject<BaseShape>>;
