import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { assertNever } from '@voltdepot/server-core';
import { ReplicaCommandSender } from '@voltdepot/server-ocpp-commands';
import { PileCommandErrorCode, PileCommandException } from '../monitoring.exception';

export type PileCommandSenderOptions = {
  /** The gateway's Redis prefix (OCPP_REDIS_PREFIX, default `vd`): its channels and connection records. */
  ocppPrefix: string;
  defaultTimeoutMs?: number;
};

const KNOWN_CODES = new Set<string>(Object.values(PileCommandErrorCode));

/**
 * Sends an OCPP command to a pile from the api, through the OCPP gateway's cross-replica command channel
 * (`@voltdepot/server-ocpp-commands`): the api takes the part another gateway replica would, and the
 * replica holding the pile calls it and answers with the pile's confirmation or the gateway's error code.
 * Like a gateway replica it journals every command in `pile_command`, so the gateway's journal lists these
 * too. Only Redis is shared: no gateway URL to configure, any number of gateway replicas.
 */
export class PileCommandSender {
  readonly replicaId = `api-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly channel: ReplicaCommandSender;

  constructor(
    redis: Redis,
    private readonly db: DataSource,
    private readonly options: PileCommandSenderOptions,
  ) {
    // Errors of the reply subscription surface through the commands that time out.
    this.channel = new ReplicaCommandSender(redis, { prefix: options.ocppPrefix, senderId: this.replicaId });
  }

  async start(): Promise<void> {
    await this.channel.start();
  }

  async stop(): Promise<void> {
    await this.channel.stop();
  }

  /** The pile's confirmation; PileCommandException (409 offline, 502 CallError, 504 no answer) otherwise. */
  async send(chargePointId: string, action: string, params: unknown, timeoutMs?: number): Promise<unknown> {
    const timeout = timeoutMs ?? this.options.defaultTimeoutMs ?? 30_000;
    const id = randomUUID();
    await this.db.query(
      `INSERT INTO pile_command (id, charge_point_id, action, params, status) VALUES ($1, $2, $3, $4::jsonb, 'pending')`,
      [id, chargePointId, action, JSON.stringify(params ?? {})],
    );
    try {
      const { response, replicaId } = await this.route(chargePointId, action, params, timeout);
      await this.finish(id, 'completed', { response, replicaId });
      return response;
    } catch (error) {
      const failure =
        error instanceof PileCommandException
          ? error
          : new PileCommandException(PileCommandErrorCode.PileError, (error as Error).message);
      const status =
        failure.code === PileCommandErrorCode.PileOffline
          ? 'offline'
          : failure.code === PileCommandErrorCode.Timeout
            ? 'timeout'
            : 'failed';
      await this.finish(id, status, { error: `${failure.code}: ${failure.message}` });
      throw failure;
    }
  }

  private async route(
    chargePointId: string,
    action: string,
    params: unknown,
    timeoutMs: number,
  ): Promise<{ response: unknown; replicaId: string }> {
    const outcome = await this.channel.send({ chargePointId, action, params, timeoutMs });
    switch (outcome.kind) {
      case 'answered':
        return { response: outcome.response, replicaId: outcome.replicaId };
      case 'failed':
        throw new PileCommandException(
          KNOWN_CODES.has(outcome.code)
            ? (outcome.code as PileCommandErrorCode)
            : PileCommandErrorCode.PileError,
          outcome.message,
          outcome.details,
        );
      case 'not-connected':
        throw new PileCommandException(
          PileCommandErrorCode.PileOffline,
          `pile ${chargePointId} is not connected`,
        );
      case 'replica-gone':
        throw new PileCommandException(
          PileCommandErrorCode.PileOffline,
          `pile ${chargePointId}: its gateway replica ${outcome.replicaId} is gone`,
        );
      case 'timeout':
        throw new PileCommandException(
          PileCommandErrorCode.Timeout,
          `pile ${chargePointId} did not answer ${action} within ${timeoutMs} ms`,
        );
      default:
        return assertNever(outcome);
    }
  }

  private async finish(
    id: string,
    status: 'completed' | 'failed' | 'timeout' | 'offline',
    outcome: { response?: unknown; error?: string; replicaId?: string },
  ): Promise<void> {
    await this.db.query(
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
