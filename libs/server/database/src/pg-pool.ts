import type { DataSource } from 'typeorm';

/** A node-postgres client checked out of a pool (the subset of `pg.PoolClient` our callers use). */
export type PgPoolClient = {
  query(text: string): Promise<unknown>;
  query<R = unknown>(config: { name?: string; text: string; values?: unknown[] }): Promise<{ rows: R[] }>;
  /** Back to the pool; with `true` (or an error) the connection is closed instead. */
  release(destroy?: boolean | Error): void;
};

/** The node-postgres pool under a connected TypeORM PostgreSQL data source. */
export type PgPool = { connect(): Promise<PgPoolClient> };

/**
 * The node-postgres pool of a connected PostgreSQL data source, for what TypeORM's `query` cannot do:
 * statement lists with one result per statement (the outbox relay) and named prepared statements
 * (`PreparedStatement`). TypeORM keeps it as `driver.master` once the data source is initialised.
 */
export function pgPoolOf(dataSource: Pick<DataSource, 'driver'>): PgPool {
  const pool = (dataSource.driver as { master?: PgPool }).master;
  if (!pool || typeof pool.connect !== 'function') {
    throw new Error('a connected PostgreSQL data source is needed (its node-postgres pool was not found)');
  }
  return pool;
}
