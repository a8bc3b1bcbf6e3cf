import { hostname } from 'node:os';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { OutboxRelay, type EventBus } from '@voltdepot/server-messaging';
import { IdTagCache } from '../authorization/id-tag.cache';
import { IdTagRepository } from '../authorization/id-tag.repository';
import { CommandRepository } from '../commands/command.repository';
import { CommandService } from '../commands/command.service';
import { OcppServer } from '../connection/ocpp-server';
import { PileAuthenticator } from '../connection/pile-authenticator';
import { PileRegistryCache } from '../connection/pile-registry.cache';
import { PileRegistryRepository } from '../connection/pile-registry.repository';
import { SessionRegistry } from '../connection/session-registry';
import { authorizeHandler } from '../handlers/authorization/v16/authorization.handlers';
import {
  bootNotificationHandler,
  dataTransferHandler,
  heartbeatHandler,
  statusNotificationHandler,
} from '../handlers/core/v16/core.handlers';
import {
  diagnosticsStatusNotificationHandler,
  firmwareStatusNotificationHandler,
} from '../handlers/firmware/v16/firmware.handlers';
import {
  meterValuesHandler,
  startTransactionHandler,
  stopTransactionHandler,
} from '../handlers/transactions/v16/transactions.handlers';
import { MessageLogWriter } from '../message-log/message-log.writer';
import { OcppRouter } from '../router/ocpp-router';
import { PileStatusRepository } from '../status/pile-status.repository';
import { TransactionRepository } from '../transactions/transaction.repository';
import type { OcppGatewayEnv } from './ocpp-gateway.config';

export type OcppGatewayDeps = {
  dataSource: DataSource;
  redis: Redis;
  /** The process's long-lived bus producer; the gateway's outbox relay publishes through it. */
  bus: EventBus;
  logger: Logger;
};

export type OcppGatewaySettings = Partial<OcppGatewayEnv> & {
  /** Run the outbox relay in this process (default true). */
  runOutboxRelay?: boolean;
  outboxIdleMs?: number;
  messageLogFlushMs?: number;
};

/**
 * Composition root of the OCPP gateway: builds every part from its dependencies, starts them in
 * order and stops them in reverse. Framework-free, so tests and the Nest module use the same thing.
 */
export class OcppGateway {
  readonly server: OcppServer;
  readonly sessions: SessionRegistry;
  readonly commands: CommandService;
  /** The `pile_command` journal the command service writes (read by the HTTP command grid). */
  readonly commandJournal: CommandRepository;
  readonly registry: PileRegistryCache;
  readonly idTags: IdTagCache;
  readonly messageLog: MessageLogWriter;
  readonly relay?: OutboxRelay;
  readonly replicaId: string;
  port?: number;

  constructor(
    private readonly deps: OcppGatewayDeps,
    settings: OcppGatewaySettings = {},
  ) {
    const { dataSource, redis, logger } = deps;
    const prefix = settings.OCPP_REDIS_PREFIX ?? 'vd';
    this.replicaId = settings.OCPP_REPLICA_ID ?? `${hostname()}-${process.pid}`;
    const onError = (what: string) => (error: unknown) => logger.error({ err: error }, what);

    const pileRepository = new PileRegistryRepository(dataSource);
    this.registry = new PileRegistryCache(pileRepository, {
      refreshMs: settings.OCPP_REGISTRY_REFRESH_MS ?? 2_000,
      onError: onError('pile registry refresh failed'),
    });
    const idTagRepository = new IdTagRepository(dataSource);
    this.idTags = new IdTagCache(idTagRepository, { ttlMs: settings.OCPP_ID_TAG_CACHE_MS ?? 5_000 });
    const status = new PileStatusRepository(dataSource);
    const transactions = new TransactionRepository(dataSource);
    this.sessions = new SessionRegistry(redis, { replicaId: this.replicaId, prefix });
    this.messageLog = new MessageLogWriter(dataSource, {
      retentionDays: settings.OCPP_MESSAGE_LOG_RETENTION_DAYS ?? 7,
      flushIntervalMs: settings.messageLogFlushMs ?? 250,
      onError: onError('OCPP message log write failed'),
    });
    if (settings.runOutboxRelay ?? true) {
      this.relay = new OutboxRelay(dataSource, deps.bus, {
        idleMs: settings.outboxIdleMs ?? 200,
        onError: onError('outbox relay failed'),
      });
    }
    const afterCommit = () => this.relay?.nudge();

    const router = new OcppRouter(
      {
        BootNotification: bootNotificationHandler({
          registry: this.registry,
          status,
          logger,
          heartbeatIntervalS: settings.OCPP_HEARTBEAT_INTERVAL_S ?? 300,
          bootRetryIntervalS: settings.OCPP_BOOT_RETRY_INTERVAL_S ?? 60,
          afterCommit,
        }),
        Heartbeat: heartbeatHandler({}),
        StatusNotification: statusNotificationHandler({ status, afterCommit }),
        DataTransfer: dataTransferHandler({ logger }),
        Authorize: authorizeHandler({ idTags: this.idTags, idTagRepository }),
        StartTransaction: startTransactionHandler({
          transactions,
          idTags: this.idTags,
          idTagRepository,
          logger,
          afterCommit,
        }),
        MeterValues: meterValuesHandler({
          transactions,
          idTags: this.idTags,
          idTagRepository,
          logger,
          afterCommit,
        }),
        StopTransaction: stopTransactionHandler({
          transactions,
          idTags: this.idTags,
          idTagRepository,
          logger,
          afterCommit,
        }),
        DiagnosticsStatusNotification: diagnosticsStatusNotificationHandler({ logger }),
        FirmwareStatusNotification: firmwareStatusNotificationHandler({ logger }),
      },
      logger,
      (session) => this.sessions.touch(session),
    );

    this.server = new OcppServer(
      {
        port: settings.OCPP_PORT ?? 9000,
        host: settings.OCPP_HOST,
        maxBadMessages: settings.OCPP_MAX_BAD_MESSAGES ?? 10,
        callTimeoutMs: settings.OCPP_COMMAND_TIMEOUT_MS ?? 30_000,
      },
      {
        authenticator: new PileAuthenticator(
          this.registry,
          (id, address) => pileRepository.recordUnknownAttempt(id, address),
          settings.OCPP_PATH ?? '/ocpp',
        ),
        sessions: this.sessions,
        router,
        status,
        messageLog: this.messageLog,
        logger,
        afterCommit,
      },
    );
    this.commandJournal = new CommandRepository(dataSource);
    this.commands = new CommandService(redis, this.sessions, this.commandJournal, logger, {
      prefix,
      defaultTimeoutMs: settings.OCPP_COMMAND_TIMEOUT_MS ?? 30_000,
    });
  }

  /** Start in dependency order; resolves with the OCPP port once piles can connect. */
  async start(): Promise<number> {
    await this.registry.start();
    await this.sessions.start((session) => this.server.evict(session));
    await this.commands.start();
    this.messageLog.start();
    this.relay?.start();
    this.port = await this.server.listen();
    this.deps.logger.info({ port: this.port, replicaId: this.replicaId }, 'OCPP gateway listening');
    return this.port;
  }

  async stop(): Promise<void> {
    await this.server.close();
    await this.commands.stop();
    await this.sessions.stop();
    this.registry.stop();
    await this.messageLog.stop();
    await this.relay?.stop();
  }
}
