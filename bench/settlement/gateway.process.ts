/**
 * Child process of the OCPP settlement benchmark (ocpp.ts): the real OcppGateway (composition root as
 * in the app: pool of 20 connections, its outbox relay publishing onto the bus) with the bus driver the
 * parent hands over. Prints `{"ready":true,"port":N}` on stdout once piles can connect; on SIGTERM stops
 * cleanly and prints `{"stats":{...}}` (calls per group commit of the start, stop and meter writers).
 * Env: BENCH_DB_URL, BENCH_DRIVER (redis|kafka), BENCH_PREFIX, BENCH_PARTITIONS, BENCH_PORT,
 * BENCH_LOG_FILE (pino, level BENCH_LOG_LEVEL or info); REDIS_URL, KAFKA_BROKERS.
 */
import Redis from 'ioredis';
import pino from 'pino';
import { createDataSource } from '@voltdepot/server-database';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the benchmark drives the app's composition root directly
import { OcppGateway } from '../../apps/ocpp-gateway/src/gateway/ocpp-gateway';
import { makeBus, REDIS_URL, type Driver } from './fixture';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

async function main(): Promise<void> {
  const prefix = env('BENCH_PREFIX');
  const dataSource = createDataSource({
    url: env('BENCH_DB_URL'),
    poolSize: 20,
    applicationName: 'bench-settlement-gateway',
  });
  await dataSource.initialize();
  const redis = new Redis(REDIS_URL);
  const bus = makeBus(env('BENCH_DRIVER') as Driver, {
    prefix,
    partitions: Number(env('BENCH_PARTITIONS')),
    kafkaConcurrency: 8,
    clientId: 'bench-settlement-gateway',
  });
  const logger = pino(
    { level: process.env['BENCH_LOG_LEVEL'] ?? 'info' },
    pino.destination({ dest: env('BENCH_LOG_FILE'), sync: false }),
  );
  const gateway = new OcppGateway(
    { dataSource, redis, bus, logger },
    {
      OCPP_PORT: Number(env('BENCH_PORT')),
      OCPP_HOST: '127.0.0.1',
      OCPP_REDIS_PREFIX: prefix,
      OCPP_REPLICA_ID: `bench-${process.pid}`,
      OCPP_HEARTBEAT_INTERVAL_S: 300,
    },
  );
  const port = await gateway.start();
  process.stdout.write(`${JSON.stringify({ ready: true, port })}\n`);

  let stopping = false;
  process.on('SIGTERM', () => {
    if (stopping) return;
    stopping = true;
    void (async () => {
      try {
        await gateway.stop();
        const stats: Record<string, number> = {};
        for (const [name, writer] of [
          ['meter', gateway.meterValues],
          ['start', gateway.starts],
          ['stop', gateway.stops],
        ] as const) {
          stats[`${name}Batches`] = writer.batches;
          stats[`${name}Calls`] = writer.items;
          stats[`${name}Seconds`] = writer.busySeconds;
        }
        process.stdout.write(`${JSON.stringify({ stats })}\n`);
        await bus.close();
        await redis.quit();
        await dataSource.destroy();
        logger.flush();
      } finally {
        process.exit(0);
      }
    })();
  });
}

main().catch((error) => {
  process.stderr.write(`gateway process failed: ${String(error?.stack ?? error)}\n`);
  process.exit(1);
});
