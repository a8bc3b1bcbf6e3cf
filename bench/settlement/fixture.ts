/**
 * Shared by the settlement benchmarks (bench.ts plays the gateway, ocpp.ts drives a real one): a fresh
 * database with the bench price plan and the consumers as the api runs them with
 * a LISTEN on every committed order row.
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource, dropDatabase, migrateDatabase, withDatabase } from '@voltdepot/server-database';
import type { EventBus, Subscription } from '@voltdepot/server-messaging';
import { occupationSubscription, parseMinute, startSettlementConsumer } from '@voltdepot/server-billing';
import { REDIS_URL, type Driver } from '../lib/bus';

export type BenchDatabase = { url: string; dataSource: DataSource; drop(): Promise<void> };

const BASE_DATABASE_URL = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/voltdepot';

/** A fresh, migrated database for one run, dropped afterwards. */
export async function createBenchDatabase(): Promise<BenchDatabase> {
  const name = `vd_bench_${randomUUID().slice(0, 8)}`;
  const url = withDatabase(BASE_DATABASE_URL, name);
  await migrateDatabase(url, 'bench-settlement');
  const dataSource = createDataSource({ url, poolSize: 3 });
  await dataSource.initialize();
  return {
    url,
    dataSource,
    async drop() {
      await dataSource.destroy();
      await dropDatabase(BASE_DATABASE_URL, name);
    },
  };
}

const STAGES = [
  ['deepValley', '00:00', '06:00', 2100, 4000],
  ['valley', '06:00', '08:00', 3200, 4000],
  ['normal', '08:00', '10:00', 6400, 6000],
  ['peak', '10:00', '17:00', 8523, 8000],
  ['sharp', '17:00', '19:00', 11800, 8000],
  ['normal', '19:00', '23:00', 6400, 6000],
  ['valley', '23:00', '24:00', 3200, 4000],
] as const;

/** The default price plan, and a trigger that announces each committed order (`bench_order`, `cp/tx`). */
export async function seedPlan(ds: DataSource): Promise<void> {
  const [{ id }] = await ds.query(
    `INSERT INTO price_plan (name, is_default) VALUES ('Bench', true) RETURNING id`,
  );
  for (const [seq, [stageType, from, to, price, fee]] of STAGES.entries()) {
    await ds.query(
      `INSERT INTO price_plan_stage (plan_id, seq, stage_type, start_minute, end_minute, electricity_price, service_fee)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [id, seq, stageType, parseMinute(from), parseMinute(to), price, fee],
    );
  }
  // Bench-only: announce each committed order so the stop -> commit latency can be measured exactly.
  await ds.query(`
    CREATE FUNCTION bench_order_committed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_notify('bench_order', NEW.charge_point_id || '/' || NEW.transaction_id); RETURN NULL; END $$`);
  await ds.query(`CREATE TRIGGER bench_order_committed AFTER INSERT ON charging_order
                  FOR EACH ROW EXECUTE FUNCTION bench_order_committed()`);
}

export function driverLabel(driver: Driver, partitions: number, kafkaConcurrency: number): string {
  return driver === 'redis'
    ? `redis (${partitions} partitions)`
    : `kafka (8 partitions, ${kafkaConcurrency} consumed at once)`;
}

/**
 * The settlement consumer and (unless `withOccupation` is false) the occupation fee consumer, sharing one
 * pool of 10 connections as in the api, and the commit time (Date.now()) of every order row, by `cp/tx`.
 */
export class SettlementConsumers {
  readonly committed = new Map<string, number>();
  private listener!: Client;
  private consumerDs!: DataSource;
  private subscriptions: Subscription[] = [];
  private waiters: { count: number; resolve: () => void }[] = [];

  constructor(
    private readonly db: BenchDatabase,
    private readonly bus: EventBus,
    private readonly withOccupation: boolean,
  ) {}

  async start(): Promise<void> {
    this.listener = new Client({ connectionString: this.db.url });
    await this.listener.connect();
    this.listener.on('notification', (n) => {
      this.committed.set(n.payload!, Date.now());
      for (const w of [...this.waiters])
        if (this.committed.size >= w.count) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve();
        }
    });
    await this.listener.query('LISTEN bench_order');
    this.consumerDs = createDataSource({ url: this.db.url, poolSize: 10 });
    await this.consumerDs.initialize();
    this.subscriptions.push(await startSettlementConsumer(this.bus, this.consumerDs));
    if (this.withOccupation)
      this.subscriptions.push(await this.bus.subscribe(occupationSubscription(this.consumerDs)));
  }

  async stop(): Promise<void> {
    await Promise.all(this.subscriptions.map((s) => s.close()));
    await this.consumerDs.destroy();
    await this.listener.end();
  }

  untilCommitted(count: number, timeoutMs = 300_000): Promise<void> {
    if (this.committed.size >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`only ${this.committed.size}/${count} orders after ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }
}

/** Deletes the Redis keys of a run (streams, leases, the gateway's session keys). */
export async function deleteRedisKeys(prefix: string): Promise<void> {
  const Redis = (await import('ioredis')).default;
  const redis = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  await redis.quit();
}
