/** What the gateway benchmarks share: a fresh database, piles registered as production registers them. */
import { randomBytes, randomUUID } from 'node:crypto';
import { execSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { createDataSource, dropDatabase, migrateDatabase, withDatabase } from '@voltdepot/server-database';
import { PilePasswordHasher } from '@voltdepot/server-pile-credentials';
import type { DataSource } from 'typeorm';

export const BASE_DATABASE_URL =
  process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/voltdepot';
export const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

export type BenchDatabase = { url: string; drop(): Promise<void> };

/** A fresh, migrated database for one run, dropped afterwards. */
export async function createBenchDatabase(): Promise<BenchDatabase> {
  const name = `vd_bench_${randomUUID().slice(0, 8)}`;
  const url = withDatabase(BASE_DATABASE_URL, name);
  await migrateDatabase(url, 'bench-gateway');
  return { url, drop: () => dropDatabase(BASE_DATABASE_URL, name) };
}

/** `work` with a one-connection data source on `url`, closed afterwards. */
export async function withDataSource<T>(url: string, work: (ds: DataSource) => Promise<T>): Promise<T> {
  const dataSource = createDataSource({ url, poolSize: 1, applicationName: 'bench-gateway' });
  await dataSource.initialize();
  try {
    return await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

export const pileId = (n: number) => `BENCH-${String(n).padStart(5, '0')}`;

/** The piles' credentials: a password per pile, and the key its hash was made with (for the gateway child). */
export type BenchCredentials = {
  passwordOf: (n: number) => string;
  /** The gateway child's environment: the key, as the service reads it. */
  env: { PILE_PASSWORD_KEY: string; PILE_PASSWORD_KEY_ID: string };
};

/**
 * Registers `BENCH-00000` … as active piles, each with its own random password (24 characters, as the
 * api generates them) stored exactly as the registry stores it in production: the keyed hash of
 * @voltdepot/server-pile-credentials under a key of this run.
 */
export async function seedPiles(url: string, piles: number): Promise<BenchCredentials> {
  const key = { id: 'bench', secret: randomBytes(32).toString('base64url') };
  const hasher = new PilePasswordHasher(key);
  const passwords = Array.from({ length: piles }, () => randomBytes(18).toString('base64url'));
  await withDataSource(url, (ds) =>
    ds.query(
      `INSERT INTO pile_registry (charge_point_id, state, password_hash)
       SELECT id, 'active', hash FROM unnest($1::text[], $2::text[]) AS t(id, hash)`,
      [passwords.map((_, n) => pileId(n)), passwords.map((p) => hasher.hash(p))],
    ),
  );
  return {
    passwordOf: (n) => passwords[n],
    env: { PILE_PASSWORD_KEY: key.secret, PILE_PASSWORD_KEY_ID: key.id },
  };
}

/**
 * PostgreSQL's processes that work for a run on a shared machine: the backends connected to the run's
 * database, and the server's WAL writer, checkpointer and background writer (which write the WAL and
 * pages of every commit, the run's and, on a shared machine, others'). Counting every `postgres` process
 * instead took in other sessions' queries, and a backend that exits takes its CPU seconds with it.
 */
export async function postgresPids(url: string): Promise<{ database: number[]; background: number[] }> {
  return withDataSource(url, async (dataSource) => {
    const rows = (await dataSource.query(
      `SELECT pid, datname = current_database() AS ours, backend_type FROM pg_stat_activity
        WHERE pid <> pg_backend_pid()
          AND (datname = current_database() OR backend_type IN ('walwriter', 'checkpointer', 'background writer'))`,
    )) as { pid: number; ours: boolean; backend_type: string }[];
    return {
      database: rows.filter((r) => r.ours).map((r) => Number(r.pid)),
      background: rows.filter((r) => !r.ours).map((r) => Number(r.pid)),
    };
  });
}

/**
 * What else the machine was doing: the load average and the top of `top` (the figures of a shared
 * machine are only comparable with this beside them).
 */
export function machineLoad(): string {
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
  let top = '';
  try {
    top = execSync('top -bn1 | head -20', { encoding: 'utf8', timeout: 10_000 });
  } catch {
    top = '(top not available)';
  }
  return `load average ${load}\n${top}`;
}
