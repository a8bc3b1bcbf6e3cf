import type { DataSource } from 'typeorm';

export type CommandStatus = 'pending' | 'completed' | 'failed' | 'timeout' | 'offline';

/** One journalled command, newest first in a page. */
export type PileCommandRecord = {
  id: string;
  chargePointId: string;
  action: string;
  params: unknown;
  status: CommandStatus;
  response: unknown;
  error: string | null;
  replicaId: string | null;
  requestedAt: string;
  completedAt: string | null;
};

/** The `pile_command` journal: every command, what the pile answered or why it failed. */
export class CommandRepository {
  constructor(private readonly dataSource: DataSource) {}

  async create(id: string, chargePointId: string, action: string, params: unknown): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO pile_command (id, charge_point_id, action, params, status) VALUES ($1, $2, $3, $4::jsonb, 'pending')`,
      [id, chargePointId, action, JSON.stringify(params ?? {})],
    );
  }

  async finish(
    id: string,
    status: Exclude<CommandStatus, 'pending'>,
    outcome: { response?: unknown; error?: string; replicaId?: string },
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE pile_command SET status = $2, response = $3::jsonb, error = $4, replica_id = $5, completed_at = now() WHERE id = $1`,
      [
        id,
        status,
        outcome.response === undefined ? null : JSON.stringify(outcome.response),
        outcome.error ?? null,
        outcome.replicaId ?? null,
      ],
    );
  }

  /** A page of one pile's commands, newest first (served by the index on charge_point_id, requested_at). */
  async page(
    chargePointId: string,
    page: number,
    size: number,
  ): Promise<{ list: PileCommandRecord[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.dataSource.query(
        `SELECT id, charge_point_id AS "chargePointId", action, params, status, response, error,
                replica_id AS "replicaId", requested_at AS "requestedAt", completed_at AS "completedAt"
           FROM pile_command WHERE charge_point_id = $1
          ORDER BY requested_at DESC, id LIMIT $2 OFFSET $3`,
        [chargePointId, size, (page - 1) * size],
      ) as Promise<
        (Omit<PileCommandRecord, 'requestedAt' | 'completedAt'> & {
          requestedAt: Date;
          completedAt: Date | null;
        })[]
      >,
      this.dataSource.query(`SELECT count(*)::int AS total FROM pile_command WHERE charge_point_id = $1`, [
        chargePointId,
      ]) as Promise<{ total: number }[]>,
    ]);
    return {
      list: rows.map((row) => ({
        ...row,
        requestedAt: row.requestedAt.toISOString(),
        completedAt: row.completedAt?.toISOString() ?? null,
      })),
      total: count[0]?.total ?? 0,
    };
  }
}
