import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { answerOf, PileCommandRepository, ReplicaCommandSender } from '@voltdepot/server-ocpp-commands';

export type PileCommandSenderOptions = {
  /** The gateway's Redis prefix (OCPP_REDIS_PREFIX, default `vd`): its channels and connection records. */
  ocppPrefix: string;
  defaultTimeoutMs?: number;
};

/**
 * Sends an OCPP command to a pile from the api, through the OCPP gateway's cross-replica command channel
 * (`@voltdepot/server-ocpp-commands`): the api takes the part another gateway replica would, and the
 * replica holding the pile calls it and answers with the pile's confirmation or the gateway's error code.
 * Like a gateway replica it journals every command in `pile_command` (the same PileCommandRepository), so
 * the gateway's journal lists these too, and fails with the same PileCommandException. Only Redis is
 * shared: no gateway URL to configure, any number of gateway replicas.
 */
export class PileCommandSender {
  readonly replicaId = `api-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly channel: ReplicaCommandSender;
  private readonly journal: PileCommandRepository;

  constructor(
    redis: Redis,
    db: DataSource,
    private readonly options: PileCommandSenderOptions,
  ) {
    // Errors of the reply subscription surface through the commands that time out.
    this.channel = new ReplicaCommandSender(redis, { prefix: options.ocppPrefix, senderId: this.replicaId });
    this.journal = new PileCommandRepository(db);
  }

  async start(): Promise<void> {
    await this.channel.start();
  }

  async stop(): Promise<void> {
    await this.channel.stop();
  }

  /** The pile's confirmation; PileCommandException (409 offline, 502 CallError, 504 no answer) otherwise. */
  async send(chargePointId: string, action: string, params: unknown, timeoutMs?: number): Promise<unknown> {
    const command = {
      chargePointId,
      action,
      params,
      timeoutMs: timeoutMs ?? this.options.defaultTimeoutMs ?? 30_000,
    };
    const { response } = await this.journal.record(command, async () =>
      answerOf(await this.channel.send(command), command),
    );
    return response;
  }
}
