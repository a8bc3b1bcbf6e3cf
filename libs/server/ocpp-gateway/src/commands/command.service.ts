import type Redis from 'ioredis';
import type { Logger } from 'pino';
import standardValidators from 'ocpp-rpc/lib/standard-validators';
import {
  CentralSystemActions,
  OCPP16_PROTOCOL,
  type CentralSystemAction,
  type CentralSystemMessages,
} from '@voltdepot/shared-ocpp';
import {
  answerOf,
  commandChannel,
  journalStatusOf,
  noAnswer,
  notConnected,
  parseCommandRequest,
  PileCommandErrorCode,
  PileCommandException,
  ReplicaCommandSender,
  type PileCommandAnswer,
  type PileCommandRepository,
  type RemoteCommandReply,
  type RemoteCommandRequest,
} from '@voltdepot/server-ocpp-commands';
import type { SessionRegistry } from '../connection/session-registry';
import type { CommandResult, GatewayMetrics } from '../metrics/gateway.metrics';
import { allowTriggeredMessage, commandRefusal } from '../router/registration-gate';

export type CommandServiceOptions = {
  /** Redis key/channel prefix shared by all replicas. */
  prefix: string;
  defaultTimeoutMs?: number;
  metrics?: GatewayMetrics;
};

/** One ajv error of the OCPP 1.6J request schema, as ocpp-rpc's validator reports it. */
type SchemaError = { instancePath: string; keyword: string; message?: string; params: unknown };

const validator = standardValidators.find((v) => v.subprotocol === OCPP16_PROTOCOL)!;

/**
 * Sends a central-system command to a pile, wherever it is connected: locally through its session, or
 * through the cross-replica command channel (`@voltdepot/server-ocpp-commands`) to the replica that holds
 * it. It is also that channel's receiver for this replica: it runs the commands published for its piles.
 * Every command is journalled in `pile_command` (PileCommandRepository, shared with the api's sender), and
 * fails with the shared PileCommandException. Offline piles fail fast (no connection record, or
 * nobody listening on the owner's channel); a pile that does not answer fails after `timeoutMs`.
 */
export class CommandService {
  private subscriber?: Redis;
  private readonly forwarder: ReplicaCommandSender;

  constructor(
    private readonly redis: Redis,
    private readonly sessions: SessionRegistry,
    private readonly journal: PileCommandRepository,
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
      throw new PileCommandException(
        PileCommandErrorCode.InvalidCommand,
        `'${action}' is not an OCPP 1.6 command; valid actions: ${CentralSystemActions.join(', ')}`,
        { validActions: CentralSystemActions },
      );
    }
    try {
      // Synchronous for OCPP 1.6J's schemas (none is $async; the type allows a promise): throws when invalid.
      void validator.validate(`urn:${action}.req`, params);
    } catch (error) {
      this.options.metrics?.command(action, 'invalid');
      const schemaErrors = (error as { details?: { errors?: SchemaError[] } }).details?.errors ?? [];
      throw new PileCommandException(
        PileCommandErrorCode.InvalidCommand,
        `${action}: ${(error as Error).message}`,
        {
          errors: schemaErrors.map(({ instancePath, keyword, message, params: where }) => ({
            path: instancePath,
            keyword,
            message,
            params: where,
          })),
        },
      );
    }
    try {
      const { response } = await this.journal.record({ chargePointId, action, params }, () =>
        this.route(chargePointId, action, params, timeoutMs),
      );
      this.options.metrics?.command(action, 'completed');
      return response as CentralSystemMessages[A][1];
    } catch (error) {
      const failure = PileCommandException.of(error);
      this.options.metrics?.command(action, commandResult(failure.code));
      throw failure;
    }
  }

  private async route(
    chargePointId: string,
    action: string,
    params: unknown,
    timeoutMs: number,
  ): Promise<PileCommandAnswer> {
    const local = this.sessions.get(chargePointId);
    if (local)
      return {
        response: await this.callLocal(chargePointId, action, params, timeoutMs),
        replicaId: this.sessions.replicaId,
      };
    const command = { chargePointId, action, params, timeoutMs };
    return answerOf(await this.forwarder.send(command), command);
  }

  private async callLocal(
    chargePointId: string,
    action: string,
    params: unknown,
    timeoutMs: number,
  ): Promise<unknown> {
    const session = this.sessions.get(chargePointId);
    if (!session) throw notConnected(chargePointId);
    const refusal = commandRefusal(session, action as CentralSystemAction);
    if (refusal) {
      this.logger.warn(
        { chargePointId, action, registrationStatus: session.registrationStatus ?? 'never booted' },
        'command refused: pile not accepted',
      );
      throw new PileCommandException(PileCommandErrorCode.PileNotAccepted, refusal, {
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
      if (e.name === 'TimeoutError' || e.constructor?.name === 'TimeoutError')
        throw noAnswer(chargePointId, action, timeoutMs);
      if (e.rpcErrorCode) {
        throw new PileCommandException(
          PileCommandErrorCode.PileError,
          `pile ${chargePointId} answered ${action} with ${e.rpcErrorCode}: ${e.message}`,
          {
            errorCode: e.rpcErrorCode,
            errorDescription: e.message,
          },
        );
      }
      // The connection went away while waiting.
      throw new PileCommandException(
        PileCommandErrorCode.PileOffline,
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
      const failure = PileCommandException.of(error);
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

/** The metrics label of a failed command: the journal's status, told apart further where the journal does not. */
function commandResult(code: PileCommandErrorCode): CommandResult {
  if (code === PileCommandErrorCode.InvalidCommand) return 'invalid';
  if (code === PileCommandErrorCode.PileNotAccepted) return 'not_accepted';
  return journalStatusOf(code);
}
