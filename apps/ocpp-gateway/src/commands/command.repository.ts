import type { DataSource } from 'typeorm';

export type CommandStatus = 'pending' | 'completed' | 'failed' | 'timeout' | 'offline';

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
}
