/**
 * Child process of the gateway benchmarks (bench/gateway/bench.ts, bench/settlement/ocpp.ts): the real
 * OcppGateway (composition root as in the app: pool of 20 connections as in app.module, its outbox relay
 * publishing onto the bus) on the port and database the parent hands over in the environment.
 * Prints one JSON line `{"ready":true,"port":N}` on stdout once piles can connect; on SIGUSR2 prints
 * `{"buckets":{...}}` (see steadyBuckets); stops cleanly on SIGTERM, printing `{"stats":{...}}` (calls per
 * group commit and commit times of the meter, start and stop writers) first.
 * Env: BENCH_DB_URL, BENCH_PREFIX, BENCH_PORT, BENCH_LOG_FILE (pino, level BENCH_LOG_LEVEL or info);
 * BENCH_DRIVER (redis|kafka) with BENCH_PARTITIONS for the bus as bench/lib/bus.ts makes it, or unset for
 * the Redis Streams bus with the service's defaults; BENCH_NAME (database application name and Kafka client
 * id, default bench-gateway); BENCH_HEARTBEAT_S (interval handed to piles, default 60); OCPP_METER_BATCH_WAIT_MS
 * and OCPP_METER_WRITE_CONCURRENCY (group-commit tuning under test); OCPP_WS_PING_INTERVAL_MS (keep-alive); BENCH_OUTBOX_BUSY_CYCLE_MS (the relay's
 * busy cycle under test); BENCH_GATEWAY_DIAG; BENCH_HEAP_SAMPLE (survivor heap profile); REDIS_URL, KAFKA_BROKERS;
 * PILE_PASSWORD_KEY (and _KEY_ID, _PREVIOUS_KEYS: the key the parent hashed the piles' passwords with, as the
 * service reads them; the development key when unset).
 */
// First, as in the service's entry point: loading the gateway library applies the process's V8 settings.
import { OcppGateway } from '@voltdepot/server-ocpp-gateway';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import Redis from 'ioredis';
import pino from 'pino';
import { createDataSource } from '@voltdepot/server-database';
import { DEFAULT_OUTBOX_RELAY, OutboxRelay, RedisStreamsBus } from '@voltdepot/server-messaging';
import { pilePasswordEnvFrom } from '@voltdepot/server-pile-credentials';
import { makeBus, REDIS_URL, type Driver } from './bus';

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

async function main(): Promise<void> {
  const prefix = env('BENCH_PREFIX');
  const name = process.env['BENCH_NAME'] ?? 'bench-gateway';
  const dataSource = createDataSource({ url: env('BENCH_DB_URL'), poolSize: 20, applicationName: name });
  await dataSource.initialize();
  const redis = new Redis(REDIS_URL);
  const driver = process.env['BENCH_DRIVER'] as Driver | undefined;
  const bus = driver
    ? makeBus(driver, {
        prefix,
        partitions: Number(env('BENCH_PARTITIONS')),
        kafkaConcurrency: 8,
        clientId: name,
      })
    : new RedisStreamsBus({ url: REDIS_URL, prefix });
  const logger = pino(
    { level: process.env['BENCH_LOG_LEVEL'] ?? 'info' },
    pino.destination({ dest: env('BENCH_LOG_FILE'), sync: false }),
  );
  // The process's outbox relay, as the service's MessagingModule runs it; its busy cycle under test.
  const outboxRelay = new OutboxRelay(dataSource, bus, {
    ...DEFAULT_OUTBOX_RELAY,
    ...(process.env['BENCH_OUTBOX_BUSY_CYCLE_MS']
      ? { busyCycleMs: Number(process.env['BENCH_OUTBOX_BUSY_CYCLE_MS']) }
      : {}),
    onError: (error) => logger.error({ err: error }, 'outbox relay failed'),
  });
  const gateway = new OcppGateway(
    { dataSource, redis, bus, logger, outboxRelay },
    {
      OCPP_PORT: Number(env('BENCH_PORT')),
      OCPP_HOST: '127.0.0.1',
      OCPP_REDIS_PREFIX: prefix,
      OCPP_REPLICA_ID: `bench-${process.pid}`,
      OCPP_HEARTBEAT_INTERVAL_S: Number(process.env['BENCH_HEARTBEAT_S'] ?? 60),
      ...pilePasswordEnvFrom(process.env),
      // Group-commit tuning under test (defaults as in the service).
      ...(process.env['OCPP_METER_BATCH_WAIT_MS']
        ? { OCPP_METER_BATCH_WAIT_MS: Number(process.env['OCPP_METER_BATCH_WAIT_MS']) }
        : {}),
      ...(process.env['OCPP_METER_WRITE_CONCURRENCY']
        ? { OCPP_METER_WRITE_CONCURRENCY: Number(process.env['OCPP_METER_WRITE_CONCURRENCY']) }
        : {}),
      ...(process.env['OCPP_WS_PING_INTERVAL_MS']
        ? { OCPP_WS_PING_INTERVAL_MS: Number(process.env['OCPP_WS_PING_INTERVAL_MS']) }
        : {}),
    },
  );
  outboxRelay.start();
  const port = await gateway.start();
  if (process.env['BENCH_GATEWAY_DIAG']) startDiagnostics();
  if (process.env['BENCH_HEAP_SAMPLE']) sampleSurvivors(process.env['BENCH_HEAP_SAMPLE']);
  process.stdout.write(`${JSON.stringify({ ready: true, port })}\n`);

  process.on('SIGUSR2', () => {
    void steadyBuckets(gateway).then((buckets) => process.stdout.write(`${JSON.stringify({ buckets })}\n`));
  });

  let stopping = false;
  process.on('SIGTERM', () => {
    if (stopping) return;
    stopping = true;
    void (async () => {
      try {
        await gateway.stop();
        // How well the group commits grouped: calls written per database transaction.
        const { meterValues, starts, stops } = gateway;
        process.stdout.write(
          `${JSON.stringify({
            stats: {
              meterBatches: meterValues.batches,
              meterCalls: meterValues.items,
              meterSeconds: meterValues.busySeconds,
              meterMaxSeconds: meterValues.maxSeconds,
              startBatches: starts.batches,
              startCalls: starts.items,
              startSeconds: starts.busySeconds,
              startMaxSeconds: starts.maxSeconds,
              stopBatches: stops.batches,
              stopCalls: stops.items,
              stopSeconds: stops.busySeconds,
              stopMaxSeconds: stops.maxSeconds,
            },
          })}\n`,
        );
        await outboxRelay.stop();
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

/**
 * The gateway's own count of answered calls of the steady actions (MeterValues and Heartbeat) per latency
 * bucket of its Prometheus histogram (receipt to answer), cumulative. The parent asks for it (SIGUSR2) at
 * both ends of the steady window and takes the difference.
 */
async function steadyBuckets(gateway: OcppGateway): Promise<Record<string, number>> {
  const metric = gateway.metrics.registry.getSingleMetric('voltdepot_ocpp_call_duration_seconds');
  if (!metric) return {};
  const counts: Record<string, number> = {};
  for (const v of (await metric.get()).values) {
    const action = v.labels['action'];
    if (action !== 'MeterValues' && action !== 'Heartbeat') continue;
    if (!(v as { metricName?: string }).metricName?.endsWith('_bucket')) continue;
    const le = String(v.labels['le']);
    counts[le] = (counts[le] ?? 0) + v.value;
  }
  return counts;
}

/**
 * BENCH_GATEWAY_DIAG=1: every 5 s one line on stderr with the heap (and its old generation), RSS and the event loop's worst delay
 * in that interval, and a line for each garbage collection pause over 50 ms (to find latency stalls).
 */
function startDiagnostics(): void {
  const started = Date.now();
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const mib = (n: number) => Math.round(n / 1024 / 1024);
  setInterval(() => {
    const m = process.memoryUsage();
    const old = getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');
    process.stderr.write(
      `[diag ${seconds()} s] heap ${mib(m.heapUsed)}/${mib(m.heapTotal)} MiB (old space ${mib(old?.space_used_size ?? 0)}), ` +
        `external ${mib(m.external)} ` +
        `(buffers ${mib(m.arrayBuffers)}), rss ${mib(m.rss)}; loop delay p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ` +
        `max ${(delay.max / 1e6).toFixed(0)} ms\n`,
    );
    delay.reset();
  }, 5_000).unref();
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.duration < 50) continue;
      const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
      process.stderr.write(`[diag ${seconds()} s] gc kind ${kind} paused ${entry.duration.toFixed(0)} ms\n`);
    }
  }).observe({ entryTypes: ['gc'] });
}

/**
 * BENCH_HEAP_SAMPLE=file.heapprofile: from 50 s to 90 s after start (the steady window at 10,000 piles),
 * a sampling heap profile that keeps the objects a minor GC freed out but those a major GC freed in: what
 * it shows beyond the live heap is what survived the young generation only to die old, the garbage that
 * makes the once-a-minute full collection (open the file in Chrome's DevTools, Memory tab).
 * BENCH_HEAP_SAMPLE_ALL=1 keeps what a minor GC freed as well: every allocation site, by bytes allocated.
 */
function sampleSurvivors(file: string): void {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  setTimeout(() => {
    void post('HeapProfiler.startSampling', {
      samplingInterval: 16_384,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: process.env['BENCH_HEAP_SAMPLE_ALL'] === '1',
    }).then(() => process.stderr.write('[heap] sampling\n'));
  }, 50_000).unref();
  setTimeout(() => {
    void post('HeapProfiler.stopSampling').then((result) => {
      writeFileSync(file, JSON.stringify((result as { profile: unknown }).profile));
      process.stderr.write(`[heap] profile written to ${file}\n`);
    });
  }, 90_000).unref();
}

main().catch((error) => {
  process.stderr.write(`gateway process failed: ${String(error?.stack ?? error)}\n`);
  process.exit(1);
});
