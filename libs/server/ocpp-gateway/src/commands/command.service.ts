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
import { assertNever } from '@voltdepot/server-core';
import {
  commandChannel,
  parseCommandRequest,
  ReplicaCommandSender,
  type RemoteCommandReply,
  type RemoteCommandRequest,
} from '@voltdepot/server-ocpp-commands';
import type { SessionRegistry } from '../connection/session-registry';
import type { CommandResult, GatewayMetrics } from '../metrics/gateway.metrics';
import { allowTriggeredMessage, commandRefusal } from '../router/registration-gate';
import type { CommandRepository } from './command.repository';
import { CommandErrorCode, CommandException } from './commands.exception';

export type CommandServiceOptions = {
  /** Redis key/channel prefix shared by all replicas. */
  prefix: string;
  defaultTimeoutMs?: number;
  metrics?: GatewayMetrics;
};

/** One ajv error of the OCPP 1.6J request schema, as ocpp-rpc's validator reports it. */
type SchemaError = { instancePath: string; keyword: string; message?: string; params: unknown };

const validator = standardValidators.find((v) => v.subprotocol === OCPP16_PROTOCOL)!;
const KNOWN_CODES = new Set<string>(Object.values(CommandErrorCode));

/**
 * Sends a central-system command to a pile, wherever it is connected: locally through its session, or
 * through the cross-replica command channel (`@voltdepot/server-ocpp-commands`) to the replica that holds
 * it. It is also that channel's receiver for this replica: it runs the commands published for its piles.
 * Every command is journalled in `pile_command`. Offline piles fail fast (no connection record, or
 * nobody listening on the owner's channel); a pile that does not answer fails after `timeoutMs`.
 */
export class CommandService {
  private subscriber?: Redis;
  private readonly forwarder: ReplicaCommandSender;

  constructor(
    private readonly redis: Redis,
    private readonly sessions: SessionRegistry,
    private readonly commands: CommandRepository,
    private readonly logger: Logger,
    private readonly options: CommandServiceOptions,
  ) {
    this.forwarder = new ReplicaCommandSender(redis, {
      prefix: options.prefix,
      senderId: sessions.replicaId,
      onError: (error) => logger.warn({ err: error }, 'command reply subscription: Redis error'),
    });
  }

  async start(): Promise<void> {
    this.subscriber = this.redis.duplicate();
    const requests = commandChannel(this.options.prefix, this.sessions.replicaId);
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel === requests) void this.serveRemote(message);
    });
    await this.subscriber.subscribe(requests);
    await this.forwarder.start();
  }

  async stop(): Promise<void> {
    await this.forwarder.stop();
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
      this.options.metrics?.command(action, 'invalid');
      throw new CommandException(
        CommandErrorCode.InvalidCommand,
        `'${action}' is not an OCPP 1.6 command; valid actions: ${CentralSystemActions.join(', ')}`,
        { validActions: CentralSystemActions },
      );
    }
    try {
      validator.validate(`urn:${action}.req`, params);
    } catch (error) {
      this.options.metrics?.command(action, 'invalid');
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
      this.options.metrics?.command(action, 'completed');
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
      this.options.metrics?.command(action, commandResult(failure.code as CommandErrorCode));
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
    const outcome = await this.forwarder.send({ chargePointId, action, params, timeoutMs });
    switch (outcome.kind) {
      case 'answered':
        return { response: outcome.response, replicaId: outcome.replicaId };
      case 'failed':
        throw new CommandException(
          KNOWN_CODES.has(outcome.code) ? (outcome.code as CommandErrorCode) : CommandErrorCode.PileError,
          outcome.message,
          outcome.details,
        );
      case 'not-connected':
        throw new CommandException(CommandErrorCode.PileOffline, `pile ${chargePointId} is not connected`);
      case 'replica-gone':
        throw new CommandException(
          CommandErrorCode.PileOffline,
          `pile ${chargePointId}: its replica ${outcome.replicaId} is gone`,
        );
      case 'timeout':
        throw new CommandException(
          CommandErrorCode.Timeout,
          `pile ${chargePointId} did not answer ${action} within ${timeoutMs} ms`,
        );
      default:
        return assertNever(outcome);
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
    const refusal = commandRefusal(session, action as CentralSystemAction);
    if (refusal) {
      this.logger.warn(
        { chargePointId, action, registrationStatus: session.registrationStatus ?? 'never booted' },
        'command refused: pile not accepted',
      );
      throw new CommandException(CommandErrorCode.PileNotAccepted, refusal, {
        registrationStatus: session.registrationStatus ?? null,
      });
    }
    try {
      const response = await session.client.call(action, params, { callTimeoutMs: timeoutMs });
      if (action === 'TriggerMessage' && (response as { status?: string }).status === 'Accepted')
        allowTriggeredMessage(session, (params as { requestedMessage: string }).requestedMessage);
      return response;
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
    const request: RemoteCommandRequest | undefined = parseCommandRequest(message);
    if (!request) return;
    let reply: RemoteCommandReply;
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
        code: failure.code,
        message: failure.message,
        details: failure.details,
      };
    }
    await this.redis
      .publish(request.replyTo, JSON.stringify(reply))
      .catch((error) => this.logger.error({ err: error }, 'could not return command reply'));
  }
}

function commandResult(code: CommandErrorCode): CommandResult {
  switch (code) {
    case CommandErrorCode.PileOffline:
      return 'offline';
    case CommandErrorCode.Timeout:
      return 'timeout';
    case CommandErrorCode.InvalidCommand:
      return 'invalid';
    case CommandErrorCode.PileNotAccepted:
      return 'not_accepted';
    case CommandErrorCode.PileError:
      return 'failed';
    default:
      return 'failed';
  }
}
