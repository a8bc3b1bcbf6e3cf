import type { EntityManager } from 'typeorm';
import { pgPoolOf, type PgPoolClient } from './pg-pool';

/** Name → text of every prepared statement made in this process: a name stands for one text only. */
const defined = new Map<string, string>();

/**
 * A statement PostgreSQL parses and plans once per connection instead of on every call: a named
 * prepared statement of node-postgres (`EntityManager.query` sends every statement unnamed, so it is
 * parsed, analysed and planned each time). For the statements a service runs many times a second: the
 * OCPP gateway's meter-value batch read spent seven times longer being planned than executed.
 *
 * PostgreSQL plans a prepared statement for its parameters for the first five runs and then keeps a
 * generic plan if that is no costlier; a schema change (a migration) invalidates the cached plan, which
 * is made again on the next run. Connection poolers must pass prepared statements through (PgBouncer
 * 1.21+ in transaction mode with `max_prepared_statements` set, or session mode).
 */
export class PreparedStatement<Row = Record<string, unknown>> {
  constructor(
    /** Unique in the process; node-postgres prepares it under this name on each connection. */
    readonly name: string,
    readonly text: string,
  ) {
    const known = defined.get(name);
    if (known !== undefined && known !== text) throw new Error(`prepared statement "${name}" defined twice`);
    defined.set(name, text);
  }

  /**
   * Runs the statement with `values` on the manager's own connection (a transaction's), or on a
   * connection of the data source's pool; resolves with the rows (also those of UPDATE ... RETURNING,
   * without TypeORM's `[rows, count]` pair).
   */
  async run(manager: EntityManager, values: unknown[]): Promise<Row[]> {
    const query = { name: this.name, text: this.text, values };
    const runner = manager.queryRunner;
    if (runner && !runner.isReleased) {
      const client = (await runner.connect()) as PgPoolClient;
      return (await client.query<Row>(query)).rows;
    }
    const client = await pgPoolOf(manager.connection).connect();
    try {
      return (await client.query<Row>(query)).rows;
    } finally {
      client.release();
    }
  }
}
