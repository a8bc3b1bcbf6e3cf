import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { assertNever } from '@voltdepot/server-core';
import { PileCommandErrorCode, PileCommandException } from './pile-command.exception';
import type { PileCommandAnswer } from './pile-command-outcome';

export type PileCommandStatus = 'pending' | 'completed' | 'failed' | 'timeout' | 'offline';

/** One journalled command, newest first in a page. */
export type PileCommandRecord = {
  id: string;
  chargePointId: string;
  action: string;
  params: unknown;
  status: PileCommandStatus;
  response: unknown;
  error: string | null;
  replicaId: string | null;
  requestedAt: string;
  completedAt: string | null;
};

/** A command as the journal records it. */
export type JournalledCommand = { chargePointId: string; action: string; params: unknown };

/** The journal status of a failed command. */
export function journalStatusOf(
  code: PileCommandErrorCode,
): Exclude<PileCommandStatus, 'pending' | 'completed'> {
  switch (code) {
    case PileCommandErrorCode.PileOffline:
      return 'offline';
    case PileCommandErrorCode.Timeout:
      return 'timeout';
    case PileCommandErrorCode.InvalidCommand:
    case PileCommandErrorCode.PileNotAccepted:
    case PileCommandErrorCode.PileError:
      return 'failed';
    default:
      return assertNever(code);
  }
}

/**
 * The `pile_command` journal: every command sent to a pile, by a gateway replica or by the api, with what
 * the pile answered or why it failed; one journal whoever sent it.
 */
export class PileCommandRepository {
  constructor(private readonly dataSource: Pick<DataSource, 'query'>) {}

  /**
   * Runs `deliver` under the command's journal row: pending before, then completed with the pile's answer
   * and the replica that delivered it, or the failure's status and `code: message`. Resolves with the
   * answer; rejects with the failure as a PileCommandException.
   */
  async record(
    command: JournalledCommand,
    deliver: () => Promise<PileCommandAnswer>,
  ): Promise<PileCommandAnswer> {
    const id = randomUUID();
    await this.create(id, command);
    try {
      const answer = await deliver();
      await this.finish(id, 'completed', answer);
      return answer;
    } catch (error) {
      const failure = PileCommandException.of(error);
      await this.finish(id, journalStatusOf(failure.code), { error: `${failure.code}: ${failure.message}` });
      throw failure;
    }
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

  private async create(id: string, command: JournalledCommand): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO pile_command (id, charge_point_id, action, params, status) VALUES ($1, $2, $3, $4::jsonb, 'pending')`,
      [id, command.chargePointId, command.action, JSON.stringify(command.params ?? {})],
    );
  }

  private async finish(
    id: string,
    status: Exclude<PileCommandStatus, 'pending'>,
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
