import { hostname } from 'node:os';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import {
  startConsumer,
  type EventBus,
  type OutboxRelay,
  type StartingConsumer,
} from '@voltdepot/server-messaging';
import type { AbandonRule } from '@voltdepot/shared-events';
import { PileCommandRepository } from '@voltdepot/server-ocpp-commands';
import { pilePasswordHasherOf } from '@voltdepot/server-pile-credentials';
import { IdTagCache } from '../authorization/id-tag.cache';
import { IdTagRepository } from '../authorization/id-tag.repository';
import { ledgerCardsSubscription } from '../authorization/ledger-cards.consumer';
import { OpenTransactions } from '../authorization/open-transactions';
import { CommandService } from '../commands/command.service';
import { HandshakeThrottle } from '../connection/handshake-throttle';
import { OcppServer } from '../connection/ocpp-server';
import { PileAuthenticator } from '../connection/pile-authenticator';
import { PileRegistryCache } from '../connection/pile-registry.cache';
import { PileRegistryRepository, type PileRecord } from '../connection/pile-registry.repository';
import { SessionRegistry } from '../connection/session-registry';
import { registrationOnConnect } from '../router/registration-gate';
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
import {
  FirmwareStatusRepository,
  type FirmwareProgressItem,
} from '../handlers/firmware/firmware-status.repository';
import { MessageLogRepository } from '../message-log/message-log.repository';
import { MessageLogWriter } from '../message-log/message-log.writer';
import { GatewayMetrics } from '../metrics/gateway.metrics';
import { GroupCommit, ShardedGroupCommit } from '../persistence/group-commit';
import { OcppRouter } from '../router/ocpp-router';
import { PileStatusRepository } from '../status/pile-status.repository';
import { PileStatusWriter } from '../status/pile-status.writer';
import {
  MeterValuesWriter,
  type MeterOutcome,
  type MeterValuesItem,
} from '../transactions/meter-values.writer';
import {
  StartTransactionWriter,
  type StartItem,
  type StartOutcome,
} from '../transactions/start-transaction.writer';
import {
  StopTransactionWriter,
  type StopItem,
  type StopOutcome,
} from '../transactions/stop-transaction.writer';
import { SessionSweep } from '../transactions/session-sweep';
import { ocppTlsOf, type OcppGatewayEnv } from './ocpp-gateway.config';

export type OcppGatewayDeps = {
  dataSource: DataSource;
  redis: Redis;
  /** The process's long-lived bus producer; the ledger's card states are consumed from it too. */
  bus: EventBus;
  /**
   * The process's outbox relay (MessagingModule runs it), nudged after every commit that wrote events so
   * they leave at once instead of at its next poll. The gateway does not run a relay of its own.
   */
  outboxRelay?: Pick<OutboxRelay, 'nudge'>;
  logger: Logger;
  /** The service's Prometheus registry (/metrics); the gateway adds its metrics to it. */
  metricsRegistry?: Registry;
};

export type OcppGatewaySettings = Partial<OcppGatewayEnv> & {
  messageLogFlushMs?: number;
  /** Meter values: longest wait for a batch (ms), and batches written at once (pool connections). */
  meterBatchWaitMs?: number;
  meterWriteConcurrency?: number;
  /** How often the session sweep runs (ms; tests), instead of OCPP_SESSION_SWEEP_S. */
  sessionSweepMs?: number;
};

/** Start-transaction writers working side by side (each holds one pool connection while it writes). */
const START_WRITERS = 2;

/**
 * Composition root of the OCPP gateway: builds every part from its dependencies, starts them in
 * order and stops them in reverse. Framework-free, so tests and the Nest module use the same thing.
 */
export class OcppGateway {
  readonly server: OcppServer;
  readonly sessions: SessionRegistry;
  readonly commands: CommandService;
  /** The `pile_command` journal the command service writes (read by the HTTP command grid). */
  readonly commandJournal: PileCommandRepository;
  readonly registry: PileRegistryCache;
  readonly idTags: IdTagCache;
  /** Open transactions' tags, for Authorize's ConcurrentTx when the database is down. */
  readonly openTransactions: OpenTransactions;
  readonly messageLog: MessageLogWriter;
  /** Reads the message log (the HTTP message log query). */
  readonly messageLogQuery: MessageLogRepository;
  /** Latest diagnostics and firmware progress per pile. */
  readonly firmwareStatus: FirmwareStatusRepository;
  readonly firmwareProgress: GroupCommit<FirmwareProgressItem, void>;
  readonly metrics: GatewayMetrics;
  readonly status: PileStatusWriter;
  readonly meterValues: GroupCommit<MeterValuesItem, MeterOutcome>;
  readonly starts: ShardedGroupCommit<StartItem, StartOutcome>;
  readonly stops: GroupCommit<StopItem, StopOutcome>;
  /** Closes sessions their pile never stopped by the time-based rules (connectorIdle, maxAge). */
  readonly sessionSweep: SessionSweep;
  readonly replicaId: string;
  port?: number;
  private readonly idTagRepository: IdTagRepository;
  /** The ledger's card authorisation, into `id_tag_ledger_state` (started with the gateway). */
  private ledgerCards?: StartingConsumer;

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
      onChange: (previous, current) => this.applyRegistryChange(previous, current),
    });
    const idTagRepository = new IdTagRepository(dataSource);
    this.idTagRepository = idTagRepository;
    this.idTags = new IdTagCache(idTagRepository, {
      ttlMs: settings.OCPP_ID_TAG_CACHE_MS ?? 5_000,
      maxStaleMs: settings.OCPP_ID_TAG_MAX_STALE_MS ?? 86_400_000,
      readTimeoutMs: settings.OCPP_AUTHORIZE_DB_TIMEOUT_MS ?? 150,
      onReadError: onError('id-tag read failed; known tags answer from the cache'),
      onLookup: (result) => this.metrics.idTagLookup(result),
    });
    this.openTransactions = new OpenTransactions(idTagRepository, {
      queryTimeoutMs: settings.OCPP_AUTHORIZE_DB_TIMEOUT_MS ?? 150,
      refreshMs: settings.OCPP_OPEN_TX_REFRESH_MS ?? 10_000,
      onError: onError('open transactions read failed; ConcurrentTx answers from memory'),
    });
    this.sessions = new SessionRegistry(redis, { replicaId: this.replicaId, prefix });
    this.messageLog = new MessageLogWriter(dataSource, {
      retentionDays: settings.OCPP_MESSAGE_LOG_RETENTION_DAYS ?? 7,
      flushIntervalMs: settings.messageLogFlushMs ?? 250,
      onError: onError('OCPP message log write failed'),
      onDrop: (reason, frames) => this.metrics.messageLogDrop(reason, frames),
      onRetry: () => this.metrics.messageLogRetry(),
    });
    this.messageLogQuery = new MessageLogRepository(dataSource);
    this.metrics = new GatewayMetrics(deps.metricsRegistry ?? new Registry(), {
      connectedPiles: () => this.sessions.size,
      writeBacklog: () =>
        this.status.backlog +
        this.meterValues.backlog +
        this.starts.backlog +
        this.stops.backlog +
        this.firmwareProgress.backlog,
    });
    // Writes of pile messages go in group commits that hold a few pool connections at most, so that
    // StartTransaction and StopTransaction (each its own transaction) always find one free.
    const onBatch = (writer: string, size: number) => this.metrics.batchWritten(writer, size);
    const sampleChecks = { maxPlausiblePowerW: settings.OCPP_MAX_PLAUSIBLE_POWER_W ?? 100_000_000 };
    const meterWriter = new MeterValuesWriter(sampleChecks);
    const startWriter = new StartTransactionWriter();
    const stopWriter = new StopTransactionWriter(sampleChecks);
    this.meterValues = new GroupCommit(dataSource, (manager, items) => meterWriter.write(manager, items), {
      name: 'meter-values',
      // Reads, then one statement writing the samples and their events (see MeterValuesWriter).
      transaction: false,
      maxBatch: 500,
      maxWaitMs: settings.meterBatchWaitMs ?? settings.OCPP_METER_BATCH_WAIT_MS ?? 2,
      concurrency: settings.meterWriteConcurrency ?? settings.OCPP_METER_WRITE_CONCURRENCY ?? 1,
      onBatch,
      onError: onError('meter values batch failed; retrying its calls one by one'),
    });
    // Starts and stops have writers (and so connections) of their own: a driver waits for them.
    // Starts of one card go to the same writer, one batch at a time, so that the concurrent-transaction
    // check of a tag sees every start of that tag before it (two batches side by side could each accept
    // the same card); starts of different cards are written in parallel (a retried start has the same
    // tag, so it meets its first copy in the same writer too).
    this.starts = new ShardedGroupCommit(dataSource, (manager, items) => startWriter.write(manager, items), {
      name: 'start-transaction',
      // One read, then one statement writing the transactions and their events (see StartTransactionWriter).
      transaction: false,
      maxBatch: 200,
      maxWaitMs: 1,
      shards: START_WRITERS,
      keyOf: (item) => item.req.idTag, // as the open-transaction check compares tags
      onBatch,
      onError: onError('start batch failed; retrying its calls one by one'),
    });
    this.stops = new GroupCommit(dataSource, (manager, items) => stopWriter.write(manager, items), {
      name: 'stop-transaction',
      // One statement per write, each with its events; a batch with samples opens its own transaction
      // (see StopTransactionWriter).
      transaction: false,
      maxBatch: 200,
      maxWaitMs: 1,
      concurrency: 2,
      onBatch,
      onError: onError('stop batch failed; retrying its calls one by one'),
    });
    this.sessionSweep = new SessionSweep(dataSource, {
      idleGraceS: settings.OCPP_SESSION_IDLE_GRACE_S ?? 600,
      maxAgeS: (settings.OCPP_SESSION_MAX_AGE_H ?? 24) * 3_600,
      everyMs: settings.sessionSweepMs ?? (settings.OCPP_SESSION_SWEEP_S ?? 60) * 1_000,
      onClosed: (closed) => {
        for (const { transactionId, rule } of closed) this.sessionClosed(transactionId, rule);
        deps.outboxRelay?.nudge();
        logger.warn({ sessions: closed }, 'sessions their piles never stopped closed by rule');
      },
      onError: onError('session sweep failed; it runs again at its next interval'),
    });
    this.status = new PileStatusWriter(new PileStatusRepository(dataSource), dataSource, {
      onBatch,
      onError: onError('status batch failed; retrying its messages one by one'),
    });
    const status = this.status;
    this.firmwareStatus = new FirmwareStatusRepository(dataSource);
    // Rare messages (an upload's or update's few steps), but a fleet-wide update makes them arrive together.
    this.firmwareProgress = new GroupCommit(
      dataSource,
      (manager, items) => this.firmwareStatus.recordBatch(manager, items),
      {
        name: 'firmware-status',
        maxBatch: 500,
        maxWaitMs: 1,
        concurrency: 1,
        onBatch,
        onError: onError('firmware status batch failed; retrying its messages one by one'),
      },
    );
    const afterCommit = () => deps.outboxRelay?.nudge();

    // Counted once committed: a quarantined stop, and every flagged sample that was stored.
    const metrics = this.metrics;
    // Starts and stops this replica commits keep the in-memory open transactions current.
    const openTransactions = this.openTransactions;
    const transactionDeps = {
      starts: {
        submit: async (item: StartItem) => {
          const outcome = await this.starts.submit(item);
          if (outcome.created) openTransactions.started(outcome.transactionId, item.req.idTag);
          for (const closed of outcome.closed ?? []) this.sessionClosed(closed, 'newStart');
          return outcome;
        },
      },
      stops: {
        submit: async (item: StopItem) => {
          const outcome = await this.stops.submit(item);
          if (outcome.outcome === 'quarantined') metrics.stopQuarantined();
          if (outcome.outcome === 'repeated') metrics.stopRepeated(outcome.disagrees ?? false);
          if (outcome.outcome !== 'quarantined' && outcome.outcome !== 'quarantined-again')
            openTransactions.stopped(item.req.transactionId);
          return outcome;
        },
      },
      meterValues: {
        submit: async (item: MeterValuesItem) => {
          const outcome = await this.meterValues.submit(item);
          for (const flag of outcome.flags ?? []) metrics.sampleFlagged(flag);
          return outcome;
        },
      },
      idTags: this.idTags,
      logger,
      afterCommit,
    };
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
        StatusNotification: statusNotificationHandler({
          status,
          afterCommit,
          sessionsClosed: (ids) => ids.forEach((id) => this.sessionClosed(id, 'rebooted')),
        }),
        DataTransfer: dataTransferHandler({ logger }),
        Authorize: authorizeHandler({ idTags: this.idTags, openTransactions: this.openTransactions }),
        StartTransaction: startTransactionHandler(transactionDeps),
        MeterValues: meterValuesHandler(transactionDeps),
        StopTransaction: stopTransactionHandler(transactionDeps),
        DiagnosticsStatusNotification: diagnosticsStatusNotificationHandler({
          progress: this.firmwareProgress,
          logger,
          afterCommit,
        }),
        FirmwareStatusNotification: firmwareStatusNotificationHandler({
          progress: this.firmwareProgress,
          logger,
          afterCommit,
        }),
      },
      logger,
      {
        onCall: (session) => this.sessions.touch(session),
        maxQueuedCalls: settings.OCPP_MAX_QUEUED_CALLS ?? 5,
        metrics: this.metrics,
      },
    );

    this.server = new OcppServer(
      {
        port: settings.OCPP_PORT ?? 9000,
        host: settings.OCPP_HOST,
        maxBadMessages: settings.OCPP_MAX_BAD_MESSAGES ?? 10,
        badMessageWindowMs: (settings.OCPP_BAD_MESSAGE_WINDOW_S ?? 60) * 1000,
        callTimeoutMs: settings.OCPP_COMMAND_TIMEOUT_MS ?? 30_000,
        pingIntervalMs: settings.OCPP_WS_PING_INTERVAL_MS ?? 30_000,
        handshakeTimeoutMs: settings.OCPP_HANDSHAKE_TIMEOUT_MS ?? 5_000,
        authFailureDelayMs: settings.OCPP_AUTH_FAILURE_DELAY_MS ?? 200,
        tls: ocppTlsOf(settings),
      },
      {
        authenticator: new PileAuthenticator({
          registry: this.registry,
          repository: pileRepository,
          hasher: pilePasswordHasherOf(settings).hasher,
          throttle: new HandshakeThrottle(redis, {
            prefix,
            windowS: settings.OCPP_AUTH_FAILURE_WINDOW_S ?? 300,
            maxPerPile: settings.OCPP_AUTH_MAX_FAILURES_PER_PILE ?? 10,
            maxPerAddress: settings.OCPP_AUTH_MAX_FAILURES_PER_ADDRESS ?? 200,
          }),
          endpointPath: settings.OCPP_PATH ?? '/ocpp',
          logger,
        }),
        sessions: this.sessions,
        router,
        status,
        messageLog: this.messageLog,
        logger,
        afterCommit,
        metrics: this.metrics,
      },
    );
    this.commandJournal = new PileCommandRepository(dataSource);
    this.commands = new CommandService(redis, this.sessions, this.commandJournal, logger, {
      prefix,
      defaultTimeoutMs: settings.OCPP_COMMAND_TIMEOUT_MS ?? 30_000,
      metrics: this.metrics,
    });
  }

  /**
   * A registry change takes effect on live connections too, not only at the next handshake (each
   * replica acts on the connections it holds). The connection of a pile that was removed, disabled or
   * given a new password is closed (not when a replica stored the same password again in the current
   * form: the new row then names the hash it replaced): it reconnects, if it still may, and starts from what the registry
   * says now (a disabled pile is refused everything but a BootNotification, which is Rejected). Any
   * other state change applies to the live connection in place, with the same cap as at connection
   * time (`registrationOnConnect`): a pile moved back to pending is Pending, one enabled again regains
   * the acceptance of its last boot, or is Accepted at its next BootNotification.
   */
  private applyRegistryChange(previous: PileRecord, current: PileRecord | undefined): void {
    const session = this.sessions.get(previous.chargePointId);
    if (!session) return;
    const reason = !current
      ? 'Pile removed from the registry'
      : current.state === 'disabled'
        ? 'Pile disabled'
        : current.passwordHash !== previous.passwordHash &&
            current.passwordRehashedFrom !== previous.passwordHash
          ? 'Pile credentials changed'
          : undefined;
    if (reason) {
      this.server.revoke(session, reason);
      return;
    }
    if (current && current.state !== session.registryState) {
      session.registryState = current.state;
      session.registrationStatus = registrationOnConnect(session.lastBoot, current.state);
    }
  }

  /** A session closed by a rule (committed): its card is free in memory too, and it is counted. */
  private sessionClosed(transactionId: number, rule: AbandonRule): void {
    this.openTransactions.stopped(transactionId);
    this.metrics.sessionsClosedBy(rule);
  }

  /** Start in dependency order; resolves with the OCPP port once piles can connect. */
  async start(): Promise<number> {
    await this.registry.start();
    await this.openTransactions.start();
    this.sessionSweep.start();
    await this.sessions.start((session) => this.server.evict(session));
    await this.commands.start();
    this.messageLog.start();
    const logger = this.deps.logger;
    this.ledgerCards = startConsumer(
      this.deps.bus,
      ledgerCardsSubscription({ repository: this.idTagRepository, idTags: this.idTags, logger }),
      {
        onRetry: (error, attempt, delayMs) =>
          logger.warn(
            { err: error, attempt, delayMs },
            'ledger card consumer not started; cards keep their last known ledger state',
          ),
      },
    );
    this.port = await this.server.listen();
    this.deps.logger.info({ port: this.port, replicaId: this.replicaId }, 'OCPP gateway listening');
    return this.port;
  }

  async stop(): Promise<void> {
    await this.ledgerCards?.close();
    await this.sessionSweep.stop();
    await this.server.close();
    await Promise.all([
      this.starts.drain(),
      this.stops.drain(),
      this.meterValues.drain(),
      this.status.drain(),
      this.firmwareProgress.drain(),
    ]);
    await this.commands.stop();
    await this.sessions.stop();
    this.registry.stop();
    this.openTransactions.stop();
    await this.messageLog.stop();
  }
}
