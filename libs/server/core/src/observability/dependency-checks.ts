import Redis from 'ioredis';
import { Pool } from 'pg';
import { DEFAULT_HEALTH_TIMEOUT_MS, HealthCheck } from './health-check';

/** Anything that runs SQL: a `pg` Pool or Client, or a TypeORM DataSource. */
export type SqlQueryable = { query: (sql: string) => Promise<unknown> };

/** The part of an ioredis client the check uses. */
export type RedisPingable = { ping: () => Promise<string>; status?: string };

type CheckOptions = { name?: string; timeoutMs?: number; critical?: boolean };

/** `SELECT 1` through the service's own pool or DataSource, so it also notices an exhausted pool. */
export function postgresCheck(source: SqlQueryable, options: CheckOptions = {}): HealthCheck {
  return {
    name: options.name ?? 'postgres',
    timeoutMs: options.timeoutMs,
    critical: options.critical,
    check: async () => {
      await source.query('SELECT 1');
    },
  };
}

/** States in which ioredis will not answer soon; reporting them at once beats waiting for the timeout. */
const REDIS_UNAVAILABLE_STATES = new Set(['reconnecting', 'close', 'end']);

/** `PING` through an ioredis client (a dedicated one, or the one the service uses). */
export function redisCheck(client: RedisPingable, options: CheckOptions = {}): HealthCheck {
  return {
    name: options.name ?? 'redis',
    timeoutMs: options.timeoutMs,
    critical: options.critical,
    check: async () => {
      if (client.status !== undefined && REDIS_UNAVAILABLE_STATES.has(client.status)) {
        throw new Error(`connection is ${client.status}`);
      }
      const reply = await client.ping();
      if (reply !== 'PONG') throw new Error(`unexpected PING reply ${JSON.stringify(reply)}`);
    },
  };
}

/**
 * A PostgreSQL check with its own one-connection pool, for a service that has no pool yet.
 * The pool is closed by `close()` (ObservabilityModule calls it at shutdown).
 */
export function postgresUrlCheck(databaseUrl: string, options: CheckOptions = {}): HealthCheck {
  const timeoutMs = options.timeoutMs ?? DEFAULT_HEALTH_TIMEOUT_MS;
  const pool = new Pool({
    connectionString: databaseUrl,
    max: 1,
    connectionTimeoutMillis: timeoutMs,
    idleTimeoutMillis: 30_000,
    allowExitOnIdle: true,
    application_name: 'voltdepot-health',
  });
  // An idle connection dropped by the server emits 'error' on the pool; without a listener that kills the process.
  pool.on('error', () => undefined);
  let closed = false;
  return {
    ...postgresCheck(pool, { ...options, timeoutMs }),
    close: async () => {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/**
 * A Redis check with its own lazily connected client, for a service that has no client yet.
 * The client is closed by `close()` (ObservabilityModule calls it at shutdown).
 */
export function redisUrlCheck(redisUrl: string, options: CheckOptions = {}): HealthCheck {
  const timeoutMs = options.timeoutMs ?? DEFAULT_HEALTH_TIMEOUT_MS;
  const client = new Redis(redisUrl, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
    connectionName: 'voltdepot-health',
    // How long disconnect() waits for the socket to close; ioredis keeps this timer even when the
    // socket is already gone (after refused connections), which would hold the process for 2 s.
    disconnectTimeout: 200,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5_000),
  });
  // The check reports connection errors; ioredis's own message for a failed command
  // ("Reached the max retries per request limit") would hide the cause.
  let connectionError: Error | undefined;
  client.on('error', (error: Error) => {
    connectionError = error;
  });
  client.on('ready', () => {
    connectionError = undefined;
  });
  const ping = redisCheck(client, { ...options, timeoutMs });
  return {
    ...ping,
    check: async () => {
      try {
        await ping.check();
      } catch (error) {
        throw connectionError ?? error;
      }
    },
    close: async () => {
      client.disconnect();
    },
  };
}
