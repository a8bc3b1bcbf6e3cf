import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import standardValidators from 'ocpp-rpc/lib/standard-validators';
import {
  CentralSystemActions,
  OCPP16_PROTOCOL,
  type CentralSystemAction,
  type CentralSystemMessages,
} from '@voltdepot/shared-ocpp';
import type { SessionRegistry } from '../connection/session-registry';
import type { CommandRepository } from './command.repository';
import { CommandErrorCode, CommandException } from './commands.exception';

export type CommandServiceOptions = {
  /** Redis key/channel prefix shared by all replicas. */
  prefix: string;
  defaultTimeoutMs?: number;
};

type RemoteRequest = {
  requestId: string;
  replyTo: string;
  chargePointId: string;
  action: string;
  params: unknown;
  timeoutMs: number;
};
type RemoteReply =
  | { requestId: string; ok: true; response: unknown }
  | { requestId: string; ok: false; code: CommandErrorCode; message: string; details?: unknown };

/** One ajv error of the OCPP 1.6J request schema, as ocpp-rpc's validator reports it. */
type SchemaError = { instancePath: string; keyword: string; message?: string; params: unknown };

const validator = standardValidators.find((v) => v.subprotocol === OCPP16_PROTOCOL)!;

/**
 * Sends a central-system command to a pile, wherever it is connected: locally through its session, or
 * through Redis pub/sub to the replica that holds it (which answers on this replica's reply channel).
 * Every command is journalled in `pile_command`. Offline piles fail fast (no connection record, or
 * nobody listening on the owner's channel); a pile that does not answer fails after `timeoutMs`.
 */
export class CommandService {
  private subscriber?: Redis;
  private readonly waiting = new Map<string, (reply: RemoteReply) => void>();

  constructor(
    private readonly redis: Redis,
    private readonly sessions: SessionRegistry,
    private readonly commands: CommandRepository,
    private readonly logger: Logger,
    private readonly options: CommandServiceOptions,
  ) {}

  private channelOf(replicaId: string): string {
    return `${this.options.prefix}:ocpp:cmd:${replicaId}`;
  }

  private replyChannelOf(replicaId: string): string {
    return `${this.options.prefix}:ocpp:cmd-reply:${replicaId}`;
  }

  async start(): Promise<void> {
    this.subscriber = this.redis.duplicate();
    const requests = this.channelOf(this.sessions.replicaId);
    const replies = this.replyChannelOf(this.sessions.replicaId);
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel === requests) void this.serveRemote(message);
      else if (channel === replies) this.acceptReply(message);
    });
    await this.subscriber.subscribe(requests, replies);
  }

  async stop(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
    this.subscriber = undefined;
  }

  async sendCommand<A extends CentralSystemAction>(
    chargePointId: string,
    action: A,
    params: CentralSystemMessages[A][0],
    timeoutMs = this.options.defaultTimeoutMs ?? 30_000,
  ): Promise<CentralSystemMessages[A][1]> {
    if (!(CentralSystemActions as readonly string[]).includes(action)) {
      throw new CommandException(
        CommandErrorCode.InvalidCommand,
        `'${action}' is not an OCPP 1.6 command; valid actions: ${CentralSystemActions.join(', ')}`,
        { validActions: CentralSystemActions },
      );
    }
    try {
      validator.validate(`urn:${action}.req`, params);
    } catch (error) {
      const schemaErrors = (error as { details?: { errors?: SchemaError[] } }).details?.errors ?? [];
      throw new CommandException(CommandErrorCode.InvalidCommand, `${action}: ${(error as Error).message}`, {
        errors: schemaErrors.map(({ instancePath, keyword, message, params: where }) => ({
          path: instancePath,
          keyword,
          message,
          params: where,
        })),
      });
    }
    const id = randomUUID();
    await this.commands.create(id, chargePointId, action, params);
    try {
      const { response, replicaId } = await this.route(chargePointId, action, params, timeoutMs);
      await this.commands.finish(id, 'completed', { response, replicaId });
      return response as CentralSystemMessages[A][1];
    } catch (error) {
      const failure =
        error instanceof CommandException
          ? error
          : new CommandException(CommandErrorCode.PileError, (error as Error).message);
      const status =
        failure.code === CommandErrorCode.PileOffline
          ? 'offline'
          : failure.code === CommandErrorCode.Timeout
            ? 'timeout'
            : 'failed';
      await this.commands.finish(id, status, { error: `${failure.code}: ${failure.message}` });
      throw failure;
    }
  }

  private async route(
    chargePointId: string,
    action: string,
    params: unknown,
    timeoutMs: number,
  ): Promise<{ response: unknown; replicaId: string }> {
    const local = this.sessions.get(chargePointId);
    if (local)
      return {
        response: await this.callLocal(chargePointId, action, params, timeoutMs),
        replicaId: this.sessions.replicaId,
      };
    const owner = await this.sessions.lookup(chargePointId);
    if (!owner)
      throw new CommandException(CommandErrorCode.PileOffline, `pile ${chargePointId} is not connected`);
    if (owner.replicaId === this.sessions.replicaId) {
      throw new CommandException(CommandErrorCode.PileOffline, `pile ${chargePointId} is not connected`);
    }
    const requestId = randomUUID();
    const request: RemoteRequest = {
      requestId,
      replyTo: this.replyChannelOf(this.sessions.replicaId),
      chargePointId,
      action,
      params,
      timeoutMs,
    };
    const reply = new Promise<RemoteReply>((resolve) => this.waiting.set(requestId, resolve));
    let timer: NodeJS.Timeout | undefined;
    try {
      const receivers = await this.redis.publish(this.channelOf(owner.replicaId), JSON.stringify(request));
      if (receivers === 0)
        throw new CommandException(
          CommandErrorCode.PileOffline,
          `pile ${chargePointId}: its replica ${owner.replicaId} is gone`,
        );
      // The owner applies timeoutMs to the pile; allow it a moment more to carry the answer back.
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new CommandException(
                CommandErrorCode.Timeout,
                `pile ${chargePointId} did not answer ${action} within ${timeoutMs} ms`,
              ),
            ),
          timeoutMs + 2_000,
        );
      });
      const answer = await Promise.race([reply, timeout]);
      if (!answer.ok) throw new CommandException(answer.code, answer.message, answer.details);
      return { response: answer.response, replicaId: owner.replicaId };
    } finally {
      if (timer) clearTimeout(timer);
      this.waiting.delete(requestId);
    }
  }

  private async callLocal(
    chargePointId: string,
    action: string,
    params: unknown,
    timeoutMs: number,
  ): Promise<unknown> {
    const session = this.sessions.get(chargePointId);
    if (!session)
      throw new CommandException(CommandErrorCode.PileOffline, `pile ${chargePointId} is not connected`);
    try {
      return await session.client.call(action, params, { callTimeoutMs: timeoutMs });
    } catch (error) {
      const e = error as Error & { rpcErrorCode?: string; details?: unknown };
      if (e.name === 'TimeoutError' || e.constructor?.name === 'TimeoutError') {
        throw new CommandException(
          CommandErrorCode.Timeout,
          `pile ${chargePointId} did not answer ${action} within ${timeoutMs} ms`,
        );
      }
      if (e.rpcErrorCode) {
        throw new CommandException(
          CommandErrorCode.PileError,
          `pile ${chargePointId} answered ${action} with ${e.rpcErrorCode}: ${e.message}`,
          {
            errorCode: e.rpcErrorCode,
            errorDescription: e.message,
          },
        );
      }
      // The connection went away while waiting.
      throw new CommandException(
        CommandErrorCode.PileOffline,
        `pile ${chargePointId} disconnected: ${e.message}`,
      );
    }
  }

  private async serveRemote(message: string): Promise<void> {
    let request: RemoteRequest;
    try {
      request = JSON.parse(message) as RemoteRequest;
    } catch {
      return;
    }
    let reply: RemoteReply;
    try {
      const response = await this.callLocal(
        request.chargePointId,
        request.action,
        request.params,
        request.timeoutMs,
      );
      reply = { requestId: request.requestId, ok: true, response };
    } catch (error) {
      const failure =
        error instanceof CommandException
          ? error
          : new CommandException(CommandErrorCode.PileError, String(error));
      reply = {
        requestId: request.requestId,
        ok: false,
        code: failure.code as CommandErrorCode,
        message: failure.message,
        details: failure.details,
      };
    }
    await this.redis
      .publish(request.replyTo, JSON.stringify(reply))
      .catch((error) => this.logger.error({ err: error }, 'could not return command reply'));
  }

  private acceptReply(message: string): void {
    try {
      const reply = JSON.parse(message) as RemoteReply;
      this.waiting.get(reply.requestId)?.(reply);
    } catch {
      // ignore malformed replies
    }
  }
}
