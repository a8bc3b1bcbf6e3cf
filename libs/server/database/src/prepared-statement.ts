import type { EntityManager } from 'typeorm';

type PgResult = { rows: unknown[] };
type PgClient = { query(config: { name: string; text: string; values: unknown[] }): Promise<PgResult> };
type PgPool = { connect(): Promise<PgClient & { release(): void }> };

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
      const client = (await runner.connect()) as PgClient;
      return (await client.query(query)).rows as Row[];
    }
    const pool = (manager.connection.driver as { master?: PgPool }).master;
    if (!pool) throw new Error('prepared statements need a connected PostgreSQL data source');
    const client = await pool.connect();
    try {
      return (await client.query(query)).rows as Row[];
    } finally {
      client.release();
    }
  }
}
