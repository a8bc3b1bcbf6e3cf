/**
 * Bus benchmark: publish -> consume latency (p50/p99) and throughput, for each driver, against the real
 * brokers. Usage: node -r @swc-node/register bench/bus/bench.ts [--events 20000] [--drivers redis,kafka]
 * Prints a table; copy the figures into docs/benchmarks.md.
 */
import { randomUUID } from 'node:crypto';
import { defineEvent, type EventDefinition } from '@voltdepot/shared-events';
import { createEnvelope, KafkaBus, RedisStreamsBus, type EventBus } from '@voltdepot/server-messaging';
import { arg, latencySummary } from '../lib/cli';

type Result = {
  driver: string;
  scenario: string;
  events: number;
  seconds: number;
  rate: number;
  p50: number;
  p99: number;
  max: number;
};

/** Throughput: publish `events` in batches as fast as possible, measure until all are consumed. */
async function throughput(
  makeBus: () => EventBus,
  driver: string,
  events: number,
  batch: number,
): Promise<Result> {
  const topic = `bench.${randomUUID().slice(0, 8)}`;
  const def = defineEvent<{ sentAt: number }>()(topic, 'bench.tick', 1);
  const producer = makeBus();
  const consumer = makeBus();
  const latencies: number[] = [];
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  await consumer.subscribe({
    topics: [topic],
    group: 'bench',
    handler: async (e) => {
      latencies.push(Date.now() - (e.payload as { sentAt: number }).sentAt);
      if (latencies.length === events) done();
    },
  });
  await warmUp(producer, def, () => latencies.length);
  latencies.length = 0;
  const started = process.hrtime.bigint();
  for (let sent = 0; sent < events; sent += batch) {
    const now = Date.now();
    await producer.publish(
      Array.from({ length: Math.min(batch, events - sent) }, (_, i) =>
        createEnvelope(def, `CP-${(sent + i) % 500}`, { sentAt: now }),
      ),
    );
  }
  await finished;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await Promise.all([producer.close(), consumer.close()]);
  return summarize(driver, `throughput (batch ${batch})`, latencies, seconds);
}

/** Latency: one event at a time at a steady rate, as piles send them. */
async function latency(
  makeBus: () => EventBus,
  driver: string,
  events: number,
  ratePerSecond: number,
): Promise<Result> {
  const topic = `bench.${randomUUID().slice(0, 8)}`;
  const def = defineEvent<{ sentAt: number }>()(topic, 'bench.tick', 1);
  const producer = makeBus();
  const consumer = makeBus();
  const latencies: number[] = [];
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  let expected = Infinity;
  await consumer.subscribe({
    topics: [topic],
    group: 'bench',
    handler: async (e) => {
      latencies.push(Date.now() - (e.payload as { sentAt: number }).sentAt);
      if (latencies.length >= expected) done();
    },
  });
  await warmUp(producer, def, () => latencies.length);
  latencies.length = 0;
  expected = events;
  const started = process.hrtime.bigint();
  const interval = 1000 / ratePerSecond;
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < events; i++) {
    const due = Number(started / 1_000_000n) + i * interval;
    const wait = due - Number(process.hrtime.bigint() / 1_000_000n);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    inflight.push(producer.publish(createEnvelope(def, `CP-${i % 500}`, { sentAt: Date.now() })));
  }
  await Promise.all(inflight);
  await finished;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await Promise.all([producer.close(), consumer.close()]);
  return summarize(driver, `latency (${ratePerSecond}/s, single events)`, latencies, seconds);
}

/** Publish one event and wait until it was consumed: topics exist and the group is assigned. */
async function warmUp(
  producer: EventBus,
  def: EventDefinition<string, { sentAt: number }>,
  consumed: () => number,
) {
  await producer.publish(createEnvelope(def, 'warmup', { sentAt: Date.now() }));
  const deadline = Date.now() + 30_000;
  while (consumed() === 0) {
    if (Date.now() > deadline) throw new Error('warm-up event was not consumed within 30 s');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function summarize(driver: string, scenario: string, latencies: number[], seconds: number): Result {
  return { driver, scenario, events: latencies.length, ...latencySummary(latencies, seconds) };
}

async function main() {
  const events = Number(arg('events', '20000'));
  const drivers = arg('drivers', 'redis,kafka').split(',');
  const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
  const brokers = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(',');
  const prefix = `vdbench-${randomUUID().slice(0, 6)}`;
  const factories: Record<string, () => EventBus> = {
    redis: () => new RedisStreamsBus({ url: redisUrl, prefix, trimIntervalMs: 0 }),
    kafka: () => new KafkaBus({ brokers, topicPrefix: `${prefix}.`, clientId: 'bench' }),
  };
  const results: Result[] = [];
  for (const driver of drivers) {
    const make = factories[driver];
    if (!make) throw new Error(`unknown driver ${driver}`);
    results.push(await throughput(make, driver, events, 100));
    results.push(await latency(make, driver, Math.min(events, 2000), 500));
  }
  console.log(`\nBus benchmark, ${new Date().toISOString()}, node ${process.version}`);
  console.table(results);
  console.log('| driver | scenario | events | rate (events/s) | p50 ms | p99 ms | max ms |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of results)
    console.log(`| ${r.driver} | ${r.scenario} | ${r.events} | ${r.rate} | ${r.p50} | ${r.p99} | ${r.max} |`);
  // Clean up what the benchmark left behind in Redis.
  const Redis = (await import('ioredis')).default;
  const redis = new Redis(redisUrl);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  await redis.quit();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
