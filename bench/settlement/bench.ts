/**
 * Settlement benchmark: StopTransaction -> settled order latency (p50/p99) and settlements per second,
 * against the real bus and PostgreSQL. The consumers run exactly as in the api: settlement (batches of
 * one partition per transaction) and, unless `--occupation false`, the occupation fee consumer that
 * reads the same transaction events, sharing one pool of 10 connections; this process also plays the gateway,
 * publishing realistic transaction events (start, meter values with energy and SoC, stop) keyed by
 * charge point. Latency runs from the publish of the stop to the commit of its order row, observed
 * with LISTEN/NOTIFY (a notification is delivered only when the inserting transaction commits).
 *
 * Usage: SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register bench/settlement/bench.ts \
 *          [--sessions 6000] [--piles 400] [--meters 4] [--rate 500] [--drivers redis,kafka] [--partitions 8]
 *          [--occupation true|false] [--scenarios burst,steady,whole] [--kafka-concurrency 8]
 * `--partitions` sets the Redis driver's streams per topic (the deployment default is 8): events of one
 * partition are handled one after another, so it bounds how many settlements run in parallel.
 * Needs DATABASE_URL / REDIS_URL / KAFKA_BROKERS (`. .var/infra.env`). Prints a table for docs/benchmarks.md.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import {
  MeterValuesReceived,
  TransactionStarted,
  TransactionStopped,
  type EventEnvelope,
} from '@voltdepot/shared-events';
import { createEnvelope, type EventBus } from '@voltdepot/server-messaging';
import { makeBus, type Driver } from '../lib/bus';
import { arg, latencySummary } from '../lib/cli';
import {
  createBenchDatabase,
  deleteRedisKeys,
  driverLabel,
  seedPlan,
  SettlementConsumers,
  type BenchDatabase,
} from './fixture';

type Result = {
  driver: string;
  scenario: string;
  settlements: number;
  seconds: number;
  rate: number;
  p50: number;
  p99: number;
  max: number;
};

type Session = { cp: string; tx: number; head: EventEnvelope[]; stop: () => EventEnvelope };

/** A bus session of `meters` samples, 15 minutes apart, somewhere in the last days (crosses bands). */
function session(cp: string, tx: number, meters: number): Session {
  const start = Date.parse('2026-11-20T10:00:00Z') + (tx % 96) * 15 * 60_000;
  const meterStart = 1_000_000 + tx * 10;
  const step = 15 * 60_000;
  const wh = (i: number) => meterStart + i * 24_513;
  const head: EventEnvelope[] = [
    createEnvelope(TransactionStarted, cp, {
      chargePointId: cp,
      connectorId: 1 + (tx % 2),
      transactionId: tx,
      idTag: `BUS-${tx % 1000}`,
      meterStartWh: meterStart,
      timestamp: new Date(start).toISOString(),
      idTagStatus: 'Accepted',
    }),
  ];
  for (let i = 1; i <= meters; i++) {
    const at = new Date(start + i * step).toISOString();
    head.push(
      createEnvelope(MeterValuesReceived, cp, {
        chargePointId: cp,
        connectorId: 1 + (tx % 2),
        transactionId: tx,
        flagged: false,
        samples: [
          { timestamp: at, measurand: 'Energy.Active.Import.Register', value: wh(i), unit: 'Wh' },
          { timestamp: at, measurand: 'Power.Active.Import', value: 98_000, unit: 'W' },
          { timestamp: at, measurand: 'SoC', value: 30 + i * 10, unit: 'Percent' },
        ],
      }),
    );
  }
  const stopAt = start + (meters + 1) * step;
  return {
    cp,
    tx,
    head,
    stop: () =>
      createEnvelope(TransactionStopped, cp, {
        chargePointId: cp,
        connectorId: 1 + (tx % 2),
        transactionId: tx,
        idTag: `BUS-${tx % 1000}`,
        meterStartWh: meterStart,
        meterStopWh: wh(meters + 1),
        energyWh: wh(meters + 1) - meterStart,
        timestamp: new Date(stopAt).toISOString(),
        reason: 'EVDisconnected',
        stopKind: 'normal',
        quarantined: false,
      }),
  };
}

class Harness {
  private txSeq = 0;

  constructor(
    private readonly db: BenchDatabase,
    private readonly producer: EventBus,
    private readonly consumers: SettlementConsumers,
    private readonly piles: number,
    private readonly meters: number,
  ) {}

  private get committed(): Map<string, number> {
    return this.consumers.committed;
  }

  private untilCommitted(count: number): Promise<void> {
    return this.consumers.untilCommitted(count);
  }

  sessions(n: number): Session[] {
    return Array.from({ length: n }, () => {
      const tx = ++this.txSeq;
      return session(`BENCH-${String(tx % this.piles).padStart(4, '0')}`, tx, this.meters);
    });
  }

  /** Publish starts and meter values, and wait until the consumer has processed them all. */
  async preload(sessions: Session[]): Promise<void> {
    const events = sessions.flatMap((s) => s.head);
    for (let i = 0; i < events.length; i += 500) await this.producer.publish(events.slice(i, i + 500));
    for (;;) {
      const [{ n }] = await this.db.dataSource.query(`SELECT count(*)::int AS n FROM billing_session`);
      const [{ r }] = await this.db.dataSource.query(
        `SELECT count(DISTINCT (charge_point_id, transaction_id, at))::int AS r FROM billing_reading`,
      );
      if (n >= this.txSeq && r >= this.txSeq * this.meters) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Stops in batches of `batch` as fast as the producer goes: settlement throughput. */
  async burst(driver: string, sessions: Session[], batch: number): Promise<Result> {
    const sentAt = new Map<string, number>();
    const base = this.committed.size;
    const started = Date.now();
    for (let i = 0; i < sessions.length; i += batch) {
      const slice = sessions.slice(i, i + batch);
      const now = Date.now();
      for (const s of slice) sentAt.set(`${s.cp}/${s.tx}`, now);
      await this.producer.publish(slice.map((s) => s.stop()));
    }
    await this.untilCommitted(base + sessions.length);
    const seconds =
      (Math.max(...sessions.map((s) => this.committed.get(`${s.cp}/${s.tx}`)!)) - started) / 1000;
    return this.summarize(driver, `burst of stops (batch ${batch})`, sessions, sentAt, seconds);
  }

  /** Whole sessions (start, meter values, stop) published at once: the full event load per settlement. */
  async fullSessions(driver: string, sessions: Session[]): Promise<Result> {
    const sentAt = new Map<string, number>();
    const base = this.committed.size;
    const started = Date.now();
    for (let i = 0; i < sessions.length; i += 100) {
      const slice = sessions.slice(i, i + 100);
      const events: EventEnvelope[] = [];
      for (const s of slice) events.push(...s.head);
      await this.producer.publish(events);
      const now = Date.now();
      for (const s of slice) sentAt.set(`${s.cp}/${s.tx}`, now);
      await this.producer.publish(slice.map((s) => s.stop()));
    }
    await this.untilCommitted(base + sessions.length);
    const seconds =
      (Math.max(...sessions.map((s) => this.committed.get(`${s.cp}/${s.tx}`)!)) - started) / 1000;
    return this.summarize(
      driver,
      `whole sessions (start + ${this.meters} meter + stop)`,
      sessions,
      sentAt,
      seconds,
    );
  }

  /**
   * Stops at a steady rate, as a depot's piles send them. Like the gateway's outbox relay, the publisher
   * sends whatever stops are due in one call and then looks again; latency runs from the moment a stop
   * was due, so time spent waiting for the producer counts.
   */
  async steady(driver: string, sessions: Session[], ratePerSecond: number): Promise<Result> {
    const sentAt = new Map<string, number>();
    const base = this.committed.size;
    const started = Date.now();
    const interval = 1000 / ratePerSecond;
    const dueAt = (i: number) => Math.round(started + i * interval);
    for (let next = 0; next < sessions.length;) {
      const wait = dueAt(next) - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const batch: Session[] = [];
      while (next < sessions.length && dueAt(next) <= Date.now()) {
        sentAt.set(`${sessions[next].cp}/${sessions[next].tx}`, dueAt(next));
        batch.push(sessions[next++]);
      }
      await this.producer.publish(batch.map((s) => s.stop()));
    }
    await this.untilCommitted(base + sessions.length);
    const seconds =
      (Math.max(...sessions.map((s) => this.committed.get(`${s.cp}/${s.tx}`)!)) - started) / 1000;
    return this.summarize(driver, `steady stops (${ratePerSecond}/s)`, sessions, sentAt, seconds);
  }

  private summarize(
    driver: string,
    scenario: string,
    sessions: Session[],
    sentAt: Map<string, number>,
    seconds: number,
  ): Result {
    const latencies = sessions.map(
      (s) => this.committed.get(`${s.cp}/${s.tx}`)! - sentAt.get(`${s.cp}/${s.tx}`)!,
    );
    return { driver, scenario, settlements: sessions.length, ...latencySummary(latencies, seconds) };
  }
}

async function main() {
  const count = Number(arg('sessions', '6000'));
  const piles = Number(arg('piles', '400'));
  const meters = Number(arg('meters', '4'));
  const rate = Number(arg('rate', '500'));
  const drivers = arg('drivers', 'redis,kafka').split(',') as Driver[];
  const partitions = Number(arg('partitions', '8'));
  const withOccupation = arg('occupation', 'true') !== 'false';
  const scenarios = arg('scenarios', 'burst,steady,whole').split(',');
  const kafkaConcurrency = Number(arg('kafka-concurrency', '8'));
  const loadAtStart = loadavg()[0];
  const results: Result[] = [];
  const prefix = `vdbench-settle-${randomUUID().slice(0, 6)}`;
  for (const driver of drivers) {
    const busOptions = { prefix, partitions, kafkaConcurrency, clientId: 'bench-settlement' };
    const label = driverLabel(driver, partitions, kafkaConcurrency);
    const db = await createBenchDatabase();
    await seedPlan(db.dataSource);
    const producer = makeBus(driver, busOptions);
    const consumerBus = makeBus(driver, busOptions);
    const consumers = new SettlementConsumers(db, consumerBus, withOccupation);
    const harness = new Harness(db, producer, consumers, piles, meters);
    try {
      await consumers.start();
      // Warm-up: topics exist, the group is assigned, the plan is cached by PostgreSQL.
      const warm = harness.sessions(50);
      await harness.preload(warm);
      await harness.burst(driver, warm, 50);

      if (scenarios.includes('burst')) {
        const burst = harness.sessions(count);
        await harness.preload(burst);
        results.push(await harness.burst(label, burst, 200));
      }
      if (scenarios.includes('steady')) {
        const steady = harness.sessions(Math.min(count, rate * 6));
        await harness.preload(steady);
        results.push(await harness.steady(label, steady, rate));
      }
      if (scenarios.includes('whole'))
        results.push(await harness.fullSessions(label, harness.sessions(Math.min(count, 3000))));
    } finally {
      await consumers.stop();
      await Promise.all([producer.close(), consumerBus.close()]);
      await db.drop();
    }
  }
  console.log(
    `\nSettlement benchmark, ${new Date().toISOString()}, node ${process.version}, ` +
      `occupation consumer ${withOccupation ? 'on' : 'off'}, ` +
      `1-minute load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end`,
  );
  console.table(results);
  console.log('| driver | scenario | settlements | settlements/s | p50 ms | p99 ms | max ms |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of results)
    console.log(
      `| ${r.driver} | ${r.scenario} | ${r.settlements} | ${r.rate} | ${r.p50} | ${r.p99} | ${r.max} |`,
    );
  await deleteRedisKeys(prefix);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
