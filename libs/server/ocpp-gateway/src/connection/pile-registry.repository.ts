import type { DataSource } from 'typeorm';

export type PileState = 'active' | 'pending' | 'disabled';

export type PileRecord = {
  chargePointId: string;
  state: PileState;
  passwordHash: string | null;
  /**
   * The hash `passwordHash` replaced when the gateway stored the same password again in the current
   * form (see restorePasswordHash); null when the password was last set by the registry's writer.
   */
  passwordRehashedFrom: string | null;
  updatedAt: Date;
};

type PileRow = {
  charge_point_id: string;
  state: PileState;
  password_hash: string | null;
  password_rehashed_from: string | null;
  updated_at: Date;
};

const COLUMNS = 'charge_point_id, state, password_hash, password_rehashed_from, updated_at';

const toRecord = (row: PileRow): PileRecord => ({
  chargePointId: row.charge_point_id,
  state: row.state,
  passwordHash: row.password_hash,
  passwordRehashedFrom: row.password_rehashed_from,
  updatedAt: new Date(row.updated_at),
});

/** The only code that reads and writes `pile_registry` and `unknown_pile_attempt`. */
export class PileRegistryRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(chargePointId: string): Promise<PileRecord | undefined> {
    const rows: PileRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM pile_registry WHERE charge_point_id = $1`,
      [chargePointId],
    );
    return rows[0] && toRecord(rows[0]);
  }

  /**
   * Rows changed at or after `since` (all rows when omitted), and the database's time of the read
   * (`polledAt`): a row committed after it has not been seen, whatever its timestamp.
   */
  async changedSince(since?: Date): Promise<{ rows: PileRecord[]; polledAt: Date }> {
    const columns = `p.polled_at, ${COLUMNS.replace(/(\w+)/g, 'r.$1')}`;
    const from = '(SELECT statement_timestamp() AS polled_at) p LEFT JOIN pile_registry r';
    const found: (Partial<PileRow> & { polled_at: Date })[] = since
      ? await this.dataSource.query(`SELECT ${columns} FROM ${from} ON r.updated_at >= $1`, [since])
      : await this.dataSource.query(`SELECT ${columns} FROM ${from} ON true`);
    return {
      rows: found
        .filter((row): row is PileRow & { polled_at: Date } => row.charge_point_id != null)
        .map(toRecord),
      polledAt: new Date(found[0].polled_at),
    };
  }

  async allIds(): Promise<Set<string>> {
    const rows: { charge_point_id: string }[] = await this.dataSource.query(
      'SELECT charge_point_id FROM pile_registry',
    );
    return new Set(rows.map((r) => r.charge_point_id));
  }

  async upsert(chargePointId: string, state: PileState, passwordHash: string | null): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO pile_registry (charge_point_id, state, password_hash) VALUES ($1, $2, $3)
       ON CONFLICT (charge_point_id) DO UPDATE
         SET state = EXCLUDED.state, password_hash = EXCLUDED.password_hash, password_rehashed_from = NULL`,
      [chargePointId, state, passwordHash],
    );
  }

  /**
   * Store a pile's password in another form (the same password), only if the registry still holds
   * `from`: of replicas verifying the same pile at once exactly one writes, and a password set
   * meanwhile is never overwritten. The row as written, or undefined when `from` was no longer there.
   */
  async restorePasswordHash(
    chargePointId: string,
    from: string,
    to: string,
  ): Promise<PileRecord | undefined> {
    const [rows] = (await this.dataSource.query(
      `UPDATE pile_registry SET password_hash = $3, password_rehashed_from = password_hash
        WHERE charge_point_id = $1 AND password_hash = $2
        RETURNING ${COLUMNS}`,
      [chargePointId, from, to],
    )) as [PileRow[], number];
    return rows[0] && toRecord(rows[0]);
  }

  /** Count a handshake from an id we do not know (one row per id and remote address). */
  async recordUnknownAttempt(chargePointId: string, remoteAddress: string | undefined): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO unknown_pile_attempt (charge_point_id, remote_address) VALUES ($1, $2)
       ON CONFLICT (charge_point_id, remote_address)
       DO UPDATE SET attempts = unknown_pile_attempt.attempts + 1, last_seen_at = now()`,
      [chargePointId.slice(0, 200), remoteAddress ?? ''],
    );
  }
}
