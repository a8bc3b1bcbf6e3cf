import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { commandChannel, replyChannel } from './command-channels';
import { parseCommandReply, type RemoteCommandReply, type RemoteCommandRequest } from './command-messages';
import { lookupConnection } from './connection-record';

export type ReplicaCommandSenderOptions = {
  /** The gateway's Redis prefix (OCPP_REDIS_PREFIX): its channels and connection records. */
  prefix: string;
  /** Names this sender's reply channel: the gateway replica's id, or an id unique to the process. */
  senderId: string;
  /** Errors of the reply subscription's connection; meanwhile the commands waiting time out. */
  onError?: (error: Error) => void;
};

export type ReplicaCommand = {
  chargePointId: string;
  action: string;
  params: unknown;
  /** What the owning replica allows the pile; the sender waits REPLY_GRACE_MS more. */
  timeoutMs: number;
};

/** How a command sent to the replica holding the pile ended; each caller turns failures into its own errors. */
export type ReplicaCommandOutcome =
  /** The pile's confirmation. */
  | { kind: 'answered'; replicaId: string; response: unknown }
  /** The owning replica answered with one of the gateway's error codes. */
  | { kind: 'failed'; replicaId: string; code: string; message: string; details?: unknown }
  /** No connection record: the pile is not connected anywhere. */
  | { kind: 'not-connected' }
  /** The record names a replica nobody listens for any more (it stopped or crashed). */
  | { kind: 'replica-gone'; replicaId: string }
  /** No reply within timeoutMs + REPLY_GRACE_MS. */
  | { kind: 'timeout'; replicaId: string };

/** The owner applies timeoutMs to the pile; this allows it a moment more to carry the answer back. */
export const REPLY_GRACE_MS = 2_000;

/**
 * The sending side of the gateway's cross-replica command channel. It finds the replica holding the pile's
 * connection, publishes the request on that replica's command channel and waits for the answer on its own
 * reply channel. Used by gateway replicas (for piles connected elsewhere) and by the api.
 */
export class ReplicaCommandSender {
  private subscriber?: Redis;
  private readonly waiting = new Map<string, (reply: RemoteCommandReply) => void>();

  constructor(
    private readonly redis: Redis,
    private readonly options: ReplicaCommandSenderOptions,
  ) {}

  get replyChannel(): string {
    return replyChannel(this.options.prefix, this.options.senderId);
  }

  async start(): Promise<void> {
    await this.stop(); // a failed earlier attempt leaves nothing behind
    const subscriber = this.redis.duplicate();
    this.subscriber = subscriber;
    subscriber.on('error', (error: Error) => this.options.onError?.(error));
    subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.replyChannel) return;
      const reply = parseCommandReply(message);
      if (reply) this.waiting.get(reply.requestId)?.(reply);
    });
    await subscriber.subscribe(this.replyChannel);
  }

  async stop(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    await subscriber?.quit().catch(() => subscriber.disconnect());
  }

  /** Redis failures reject; everything the protocol reports is an outcome. */
  async send(command: ReplicaCommand): Promise<ReplicaCommandOutcome> {
    if (!this.subscriber) throw new Error('the replica command sender is not started');
    const owner = await lookupConnection(this.redis, this.options.prefix, command.chargePointId);
    // A record naming this sender is stale: a replica serves its own piles locally, not through Redis.
    if (!owner || owner.replicaId === this.options.senderId) return { kind: 'not-connected' };
    const replicaId = owner.replicaId;
    const requestId = randomUUID();
    const { chargePointId, action, params, timeoutMs } = command;
    const request: RemoteCommandRequest = {
      requestId,
      replyTo: this.replyChannel,
      chargePointId,
      action,
      params,
      timeoutMs,
    };
    const reply = new Promise<RemoteCommandReply>((resolve) => this.waiting.set(requestId, resolve));
    let timer: NodeJS.Timeout | undefined;
    try {
      const receivers = await this.redis.publish(
        commandChannel(this.options.prefix, replicaId),
        JSON.stringify(request),
      );
      if (receivers === 0) return { kind: 'replica-gone', replicaId };
      const expired = new Promise<undefined>((resolve) => {
        timer = setTimeout(resolve, timeoutMs + REPLY_GRACE_MS, undefined);
      });
      const answer = await Promise.race([reply, expired]);
      if (!answer) return { kind: 'timeout', replicaId };
      return answer.ok
        ? { kind: 'answered', replicaId, response: answer.response }
        : { kind: 'failed', replicaId, code: answer.code, message: answer.message, details: answer.details };
    } finally {
      if (timer) clearTimeout(timer);
      this.waiting.delete(requestId);
    }
  }
}
