import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { createRPCError, RPCClient } from 'ocpp-rpc';
import {
  CentralSystemActions,
  stopKindOf,
  type CentralSystemAction,
  type CentralSystemMessages,
  type ChargePointStatus,
  type ChargingProfile,
  type DiagnosticsStatus,
  type FirmwareStatus,
  type IdTagInfo,
  type MessageTrigger,
  type RegistrationStatus,
  type StopKind,
  type StopReason,
} from '@voltdepot/shared-ocpp';
import { BusBattery, type BusBatteryOptions } from './bus-battery';
import { activeLimitW, compositeSchedule, type InstalledProfile } from './charging-profiles';
import { realClock, type Clock } from './depot-clock';
import {
  LATE_SAMPLE_RISE_WH,
  registerText,
  secondStop,
  wholeRegisterWh,
  type AbandonHow,
  type DoubleStop,
} from './field-behaviours';
import { TransactionMessageQueue, type QueuedAction } from './transaction-message-queue';

export type SimulatedPileOptions = {
  /** Central system endpoint without the id, e.g. ws://127.0.0.1:9000/ocpp */
  url: string;
  chargePointId: string;
  password?: string;
  /** Number of guns (connectors 1..n). */
  connectors?: number;
  vendor?: string;
  model?: string;
  firmwareVersion?: string;
  /** Real milliseconds between two meter samples while charging. */
  meterIntervalMs?: number;
  /**
   * Simulated seconds per real second (60: a 3 h session takes 3 min). Speeds up the energy only: the
   * messages carry real time. Ignored with `clock`.
   */
  timeScale?: number;
  /**
   * The time every message carries (e.g. a `DepotClock`); energy then follows this clock (power x clock
   * time between samples). Default: real time, energy sped up by `timeScale`.
   */
  clock?: Clock;
  /** With `clock`: at least this much clock time (ms) between two meter samples (a tick sooner is skipped). */
  minSampleSpacingMs?: number;
  maxPowerW?: number;
  /** Retry delay after Pending/Rejected boot when shorter than the interval the central system asks for (tests). */
  bootRetryMs?: number;
  /** Reconnect after an unintended loss of connection. */
  reconnectDelayMs?: number;
  callTimeoutMs?: number;
  /** Retransmit a transaction message whose answer was lost with the same message id (else a new one). */
  sameMessageIdOnRetry?: boolean;
  /**
   * OCPP 1.6 feature profiles the pile supports (its `SupportedFeatureProfiles`); commands of another
   * profile get NotSupported / Rejected. Default: all six.
   */
  featureProfiles?: FeatureProfile[];
  /** Supply voltage (V) that converts an ampere charging-profile limit into watts. Default 400. */
  voltageV?: number;
  /** Real milliseconds between two steps of a firmware update or diagnostics upload. Default 1000. */
  statusStepMs?: number;
  /**
   * Report the energy register with two decimals ("92.49"), as OCPP allows; meterStart and meterStop
   * stay whole Wh, rounded down (so meterStop may be up to 1 Wh below the last sample). Default false.
   */
  decimalRegister?: boolean;
  /**
   * After each StopTransaction, a periodic MeterValues of the transaction stamped this many ms after the
   * stop's timestamp, its register a little above meterStop (the pile's sampling timer fired just after
   * the stop). 0 or unset: none.
   */
  lateSampleMs?: number;
  /** At the stop the gun goes Charging -> Available without Finishing (`holdAfterStop` is then ignored). */
  skipFinishing?: boolean;
  log?: (line: string) => void;
};

/** What `powerLoss` does after the pile comes back. */
export type PowerLossOptions = {
  /** How long the pile stays dark before it boots again (ms, default 0). */
  offlineMs?: number;
  /**
   * The pile kept its queued messages: it sends the StopTransaction (reason PowerLoss) of each session it
   * lost this many ms after booting again. Unset: the pile forgot them, no StopTransaction ever comes.
   */
  replayStopAfterMs?: number;
};

export const FeatureProfiles = [
  'Core',
  'FirmwareManagement',
  'LocalAuthListManagement',
  'Reservation',
  'SmartCharging',
  'RemoteTrigger',
] as const;
export type FeatureProfile = (typeof FeatureProfiles)[number];

export type Reservation = {
  reservationId: number;
  connectorId: number;
  idTag: string;
  parentIdTag?: string;
  expiryDate: string;
};

/** How the pile answers a central-system command (what `handleCommand` does for each action). */
type CommandHandlers = {
  [A in CentralSystemAction]: (params: CentralSystemMessages[A][0]) => Promise<CentralSystemMessages[A][1]>;
};

export type SessionRecord = {
  connectorId: number;
  idTag: string;
  transactionId?: number;
  idTagStatus?: string;
  meterStartWh: number;
  meterStopWh?: number;
  /** Energy the pile metered for this session (Wh). */
  energyWh: number;
  startedAt: string;
  stoppedAt?: string;
  reason?: StopReason;
  stopKind?: StopKind;
  startSoc: number;
  endSoc?: number;
  /** Every energy register reading the pile reported for the session, in order (start, samples, stop). */
  readings: { at: string; energyWh: number }[];
  /** The reservation the session used (sent in StartTransaction). */
  reservationId?: number;
  /**
   * The pile abandoned the session without a StopTransaction (at that time): `powerLoss` (it rebooted
   * mid-session), `vanished` (it went away for good), `forgotten` (the gun went idle without a stop).
   * `meterStopWh` and `stoppedAt` are then the register and the time at that moment.
   */
  abandoned?: AbandonHow;
  /** The StopTransaction of an abandoned session was sent later all the same (a replayed queue). */
  stopReplayed?: boolean;
  /** The second StopTransaction the pile sent for the session (the first is the one above). */
  repeatedStop?: { meterStopWh: number; timestamp: string; reason: StopReason };
  /** The periodic sample stamped after the stop (see `lateSampleMs`). */
  lateSample?: { at: string; energyWh: number };
};

export type SessionOptions = BusBatteryOptions & {
  /** Stop by itself when the bus reaches its target SoC (default true). */
  autoStop?: boolean;
  /** Reason of that automatic stop (default EVDisconnected: the bus unplugs when full). */
  fullStopReason?: StopReason;
  /**
   * After the stop the bus stays plugged in: the gun reports Finishing until `unplug()` (what a depot
   * pile does when it ends the session itself, and what occupation fees are charged on). Default false:
   * Finishing then straight back to Available.
   */
  holdAfterStop?: boolean;
  /** Stop twice: a second StopTransaction with another reason and a higher meterStop follows the first. */
  doubleStop?: DoubleStop;
  /**
   * Replay the stop: the very same StopTransaction is sent again after the first was answered (a pile
   * that replays its transaction queue after a lost answer or a reboot); 'stopReplayed' (the session)
   * is emitted once the replay is answered.
   */
  replayStop?: boolean;
};

type Connector = {
  id: number;
  status: ChargePointStatus;
  meterWh: number;
  available: boolean;
  session?: SessionRecord;
  battery?: BusBattery;
  meterTimer?: NodeJS.Timeout;
  /** Clock time (ms) of the last energy reading (clock mode). */
  lastReadingAt?: number;
  /** The session's `holdAfterStop`. */
  holdAfterStop?: boolean;
  /** The session's `doubleStop`. */
  doubleStop?: DoubleStop;
  /** The session's `replayStop`. */
  replayStop?: boolean;
  /** Suspended (SuspendedEV / SuspendedEVSE): the session goes on at 0 kW. */
  suspended?: boolean;
  /** Resolves once the StartTransaction answer has arrived. */
  started?: Promise<void>;
  reservation?: Reservation;
  reservationTimer?: NodeJS.Timeout;
};

const CONFIGURATION_READONLY = new Set([
  'NumberOfConnectors',
  'SupportedFeatureProfiles',
  'ReserveConnectorZeroSupported',
  'LocalAuthListMaxLength',
  'SendLocalListMaxLength',
  'ChargeProfileMaxStackLevel',
  'ChargingScheduleAllowedChargingRateUnit',
  'ChargingScheduleMaxPeriods',
  'MaxChargingProfilesInstalled',
]);
const BUSY: ChargePointStatus[] = ['Preparing', 'Charging', 'SuspendedEV', 'SuspendedEVSE', 'Finishing'];

/**
 * An OCPP 1.6J charge point with several guns, for tests, load and demos: boots, reports status,
 * sends heartbeats, authorizes, charges buses along a realistic power/SoC curve and stops with normal
 * or abnormal reasons. Transaction messages survive connection loss (queued and replayed in order).
 * It answers the central system's commands, and keeps its own record of every session for settlement
 * tests to compare with what the back office computed.
 */
export class SimulatedPile extends EventEmitter {
  readonly chargePointId: string;
  readonly sessions: SessionRecord[] = [];
  readonly configuration = new Map<string, string>();
  /** The local authorization list (SendLocalList) and its version (0: none yet). */
  readonly localAuthorizationList = new Map<string, IdTagInfo>();
  localListVersion = 0;
  firmwareStatus: FirmwareStatus = 'Idle';
  diagnosticsStatus: DiagnosticsStatus = 'Idle';
  registrationStatus?: RegistrationStatus;
  private profiles: InstalledProfile[] = [];
  private readonly featureProfiles: Set<FeatureProfile>;
  private readonly timers = new Set<NodeJS.Timeout>();
  private client?: RPCClient;
  private readonly connectors = new Map<number, Connector>();
  private readonly queue: TransactionMessageQueue;
  private readonly rawWaiters = new Map<
    string,
    { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();
  private heartbeatTimer?: NodeJS.Timeout;
  private reconnectTimer?: NodeJS.Timeout;
  private wantOnline = false;
  private isOpen = false;
  private vanished = false;

  constructor(private readonly options: SimulatedPileOptions) {
    super();
    this.chargePointId = options.chargePointId;
    const count = options.connectors ?? 2;
    for (let id = 1; id <= count; id++)
      this.connectors.set(id, { id, status: 'Available', meterWh: 1_000_000 * id, available: true });
    this.configuration.set('HeartbeatInterval', '300');
    this.configuration.set(
      'MeterValueSampleInterval',
      String(Math.round((options.meterIntervalMs ?? 1000) / 1000)),
    );
    this.configuration.set('NumberOfConnectors', String(count));
    this.featureProfiles = new Set(options.featureProfiles ?? FeatureProfiles);
    this.configuration.set('SupportedFeatureProfiles', [...this.featureProfiles].join(','));
    if (this.supports('LocalAuthListManagement')) {
      this.configuration.set('LocalAuthListEnabled', 'true');
      this.configuration.set('LocalAuthListMaxLength', '1000');
      this.configuration.set('SendLocalListMaxLength', '1000');
    }
    if (this.supports('Reservation')) this.configuration.set('ReserveConnectorZeroSupported', 'false');
    if (this.supports('SmartCharging')) {
      this.configuration.set('ChargeProfileMaxStackLevel', '10');
      this.configuration.set('ChargingScheduleAllowedChargingRateUnit', 'Current,Power');
      this.configuration.set('ChargingScheduleMaxPeriods', '48');
      this.configuration.set('MaxChargingProfilesInstalled', '20');
    }
    this.configuration.set('TransactionMessageAttempts', '3');
    this.configuration.set('TransactionMessageRetryInterval', '1');
    this.queue = new TransactionMessageQueue(
      {
        online: () => this.isOpen,
        send: (action, params, messageId) => this.send(action, params, messageId),
      },
      { maxAttempts: 3, retryDelayMs: 200, sameMessageIdOnRetry: options.sameMessageIdOnRetry },
    );
  }

  /** The clock the pile's messages carry. */
  get clock(): Clock {
    return this.options.clock ?? realClock;
  }

  get online(): boolean {
    return this.isOpen;
  }

  /** Transaction messages waiting for the connection. */
  get pendingMessages(): number {
    return this.queue.length;
  }

  /** The transaction messages waiting for the connection, as they would be sent now (tests). */
  queuedMessages(): { action: QueuedAction; params: Record<string, unknown> }[] {
    return this.queue.peek();
  }

  /** The pile went away for good (`vanish`): it does not start sessions any more. */
  get gone(): boolean {
    return this.vanished;
  }

  connectorStatus(connectorId: number): ChargePointStatus | undefined {
    return this.connectors.get(connectorId)?.status;
  }

  activeSession(connectorId: number): SessionRecord | undefined {
    return this.connectors.get(connectorId)?.session;
  }

  reservation(connectorId: number): Reservation | undefined {
    return this.connectors.get(connectorId)?.reservation;
  }

  /** Charging profiles installed on `connectorId` (0: the whole pile), or all of them. */
  chargingProfiles(connectorId?: number): InstalledProfile[] {
    return this.profiles.filter((p) => connectorId === undefined || p.connectorId === connectorId);
  }

  /** The power cap (W) the charging profiles put on the connector now; undefined when none applies. */
  powerLimitW(connectorId: number): number | undefined {
    const session = this.connectors.get(connectorId)?.session;
    return activeLimitW(this.profiles, {
      connectorId,
      at: this.clock.now(),
      transactionStartedAt: session ? Date.parse(session.startedAt) : undefined,
      transactionId: session?.transactionId,
      voltageV: this.options.voltageV ?? 400,
    });
  }

  supports(profile: FeatureProfile): boolean {
    return this.featureProfiles.has(profile);
  }

  /** Connect, boot until accepted, report every connector's status and start heartbeats. */
  async start(): Promise<void> {
    this.wantOnline = true;
    await this.open();
    await this.boot();
  }

  /** Shut down: stop heartbeats and meters, close the socket (sessions stay as they are). */
  async stop(): Promise<void> {
    this.wantOnline = false;
    this.clearTimers();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const connector of this.connectors.values()) {
      if (connector.meterTimer) clearInterval(connector.meterTimer);
      if (connector.reservationTimer) clearTimeout(connector.reservationTimer);
    }
    await this.client?.close({ force: true }).catch(() => undefined);
    this.isOpen = false;
  }

  /** Simulate a network loss: the socket drops and stays down until `goOnline()`. */
  async goOffline(): Promise<void> {
    this.wantOnline = false;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.isOpen = false;
    await this.client?.close({ force: true }).catch(() => undefined);
  }

  /** Network back: reconnect, report status, replay queued transaction messages. */
  async goOnline(): Promise<void> {
    this.wantOnline = true;
    await this.open();
    await this.afterReconnect();
  }

  async call<T = unknown>(action: string, params: Record<string, unknown> = {}): Promise<T> {
    if (!this.client || !this.isOpen) throw new Error(`${this.chargePointId} is offline`);
    return (await this.client.call(action, params, {
      callTimeoutMs: this.options.callTimeoutMs ?? 10_000,
    })) as T;
  }

  /** Send a CALL frame with a chosen message id (a retransmission of the identical frame). */
  sendWithMessageId<T = unknown>(
    action: string,
    params: Record<string, unknown>,
    messageId: string,
  ): Promise<T> {
    if (!this.client || !this.isOpen) return Promise.reject(new Error(`${this.chargePointId} is offline`));
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.rawWaiters.delete(messageId);
        reject(new Error(`${action} ${messageId}: no answer`));
      }, this.options.callTimeoutMs ?? 10_000);
      this.rawWaiters.set(messageId, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.client!.sendRaw(JSON.stringify([2, messageId, action, params]));
    });
  }

  /**
   * Plug a bus in on `connectorId` and charge it: Authorize (when online), StartTransaction, periodic
   * MeterValues; it stops by itself (EVDisconnected, or `fullStopReason`) when the bus reaches its
   * target SoC, unless `autoStop` is false. Resolves with the session record once the start is queued.
   */
  async startSession(connectorId: number, idTag: string, bus: SessionOptions = {}): Promise<SessionRecord> {
    const connector = this.connector(connectorId);
    if (this.vanished) throw new Error(`${this.chargePointId} is gone`);
    if (connector.session) throw new Error(`connector ${connectorId} is busy`);
    const reservation = this.liveReservation(connector);
    if (reservation && reservation.idTag !== idTag && reservation.parentIdTag !== idTag)
      throw new Error(`connector ${connectorId} is reserved for another idTag`);
    if (this.isOpen) {
      const { idTagInfo } = await this.call<{ idTagInfo: { status: string } }>('Authorize', { idTag });
      if (idTagInfo.status !== 'Accepted')
        throw new Error(`idTag ${idTag} not accepted: ${idTagInfo.status}`);
    } else {
      // Offline: the local authorization list decides for the tags it holds.
      const local = this.localAuthorizationList.get(idTag);
      if (local && local.status !== 'Accepted')
        throw new Error(`idTag ${idTag} not accepted: ${local.status}`);
    }
    if (connector.session) throw new Error(`connector ${connectorId} is busy`);
    if (reservation) this.dropReservation(connector);
    const battery = new BusBattery({ maxPowerW: this.options.maxPowerW, ...bus });
    const startedAt = this.clock.now();
    const session: SessionRecord = {
      connectorId,
      idTag,
      meterStartWh: this.wholeRegister(connector),
      energyWh: 0,
      startedAt: new Date(startedAt).toISOString(),
      startSoc: battery.soc,
      readings: [],
      ...(reservation ? { reservationId: reservation.reservationId } : {}),
    };
    session.readings.push({ at: session.startedAt, energyWh: session.meterStartWh });
    connector.session = session;
    connector.battery = battery;
    connector.lastReadingAt = startedAt;
    connector.holdAfterStop = bus.holdAfterStop ?? false;
    connector.doubleStop = bus.doubleStop;
    connector.replayStop = bus.replayStop ?? false;
    connector.suspended = false;
    this.sessions.push(session);
    await this.setStatus(connector, 'Preparing');
    const startParams = {
      connectorId,
      idTag,
      meterStart: session.meterStartWh,
      ...(reservation ? { reservationId: reservation.reservationId } : {}),
      timestamp: session.startedAt,
    };
    const onAnswer = (response: unknown) => {
      const { transactionId, idTagInfo } = response as {
        transactionId: number;
        idTagInfo: { status: string };
      };
      session.transactionId = transactionId;
      session.idTagStatus = idTagInfo.status;
    };
    connector.started = this.queue
      .enqueue('StartTransaction', () => startParams, onAnswer)
      .then(
        async () => {
          this.emit('transactionStarted', session);
          if (session.idTagStatus !== 'Accepted' && !session.stoppedAt)
            await this.stopSession(connectorId, 'DeAuthorized');
        },
        (error: Error) => this.log(`StartTransaction dropped: ${error.message}`),
      );
    await this.setStatus(connector, 'Charging');
    this.startMeter(connector, bus.autoStop ?? true, bus.fullStopReason ?? 'EVDisconnected');
    return session;
  }

  /** End the session on `connectorId` with `reason`; resolves when the stop is queued (not necessarily sent). */
  async stopSession(connectorId: number, reason: StopReason = 'Local'): Promise<SessionRecord> {
    const connector = this.connector(connectorId);
    if (!connector.session) throw new Error(`connector ${connectorId} has no session`);
    const session = this.endSession(connector, reason);
    const stopped = session.stoppedAt!;
    const stop = {
      meterStop: session.meterStopWh!,
      timestamp: stopped,
      reason,
      transactionData: [this.energySample(stopped, this.register(connector), 'Transaction.End')],
    };
    this.enqueueStop(session, stop);
    if (connector.replayStop)
      this.enqueueStop(session, stop, false, () => this.emit('stopReplayed', session));
    const late = this.options.lateSampleMs ?? 0;
    if (late > 0) {
      // The sampling timer fires just after the stop: the register has moved on by a trace.
      connector.meterWh += this.options.decimalRegister
        ? LATE_SAMPLE_RISE_WH.decimal
        : LATE_SAMPLE_RISE_WH.whole;
      const at = new Date(Date.parse(stopped) + late).toISOString();
      const value = this.register(connector);
      session.lateSample = { at, energyWh: Number(value) };
      void this.queue
        .enqueue('MeterValues', () => ({
          connectorId,
          ...(session.transactionId !== undefined ? { transactionId: session.transactionId } : {}),
          meterValue: [
            {
              timestamp: at,
              sampledValue: [
                { value, measurand: 'Energy.Active.Import.Register', unit: 'Wh', context: 'Sample.Periodic' },
              ],
            },
          ],
        }))
        .catch((error: Error) => this.log(`MeterValues dropped: ${error.message}`));
    }
    if (connector.doubleStop) {
      const second = secondStop(
        { meterStopWh: session.meterStopWh!, timestamp: stopped, reason },
        connector.doubleStop,
      );
      session.repeatedStop = second;
      // The pile metered on until its second stop: the next session starts from there.
      connector.meterWh = Math.max(connector.meterWh, second.meterStopWh);
      this.enqueueStop(
        session,
        { meterStop: second.meterStopWh, timestamp: second.timestamp, reason: second.reason },
        false,
      );
    }
    if (!this.options.skipFinishing) await this.setStatus(connector, 'Finishing');
    if (!connector.holdAfterStop || this.options.skipFinishing)
      await this.setStatus(connector, this.idleStatus(connector));
    return session;
  }

  /**
   * Power loss or reboot mid-session: every session on the pile ends without a StopTransaction, the
   * connection drops without a word, and the pile boots again (BootNotification, every connector
   * Available). Unsent transaction messages are lost, unless `replayStopAfterMs` is given: then the pile
   * kept its queue and sends each lost session's StopTransaction (PowerLoss) that long after booting.
   * Resolves, with the sessions it cut, once the pile has booted again.
   */
  async powerLoss(options: PowerLossOptions = {}): Promise<SessionRecord[]> {
    const cut = this.abandonAll('powerLoss', 'PowerLoss');
    const replay = options.replayStopAfterMs;
    if (replay === undefined) this.queue.clear('power loss');
    this.wantOnline = false;
    this.clearTimers();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.isOpen = false;
    await this.client?.close({ force: true }).catch(() => undefined);
    // A pile that lost power boots from scratch: BootNotification first, whatever it was told before.
    this.registrationStatus = undefined;
    if (options.offlineMs) await new Promise((r) => setTimeout(r, options.offlineMs));
    await this.start();
    if (replay !== undefined)
      this.later(async () => {
        for (const session of cut) {
          session.stopReplayed = true;
          this.enqueueStop(session, {
            meterStop: session.meterStopWh!,
            timestamp: session.stoppedAt!,
            reason: 'PowerLoss',
          });
        }
      }, replay);
    return cut;
  }

  /**
   * The pile goes away for good mid-session (shut down, stolen, out of service): no StopTransaction, no
   * goodbye, no reconnection. Resolves with the sessions it left open.
   */
  async vanish(): Promise<SessionRecord[]> {
    const left = this.abandonAll('vanished');
    this.vanished = true;
    this.queue.clear('the pile vanished');
    await this.stop();
    return left;
  }

  /**
   * The pile drops the session on `connectorId` without a StopTransaction and stays online, the gun
   * reporting `status`: Available (as after a firmware fault), or Finishing (plugged in, never stopped).
   */
  async forgetSession(
    connectorId: number,
    status: 'Available' | 'Finishing' = 'Available',
  ): Promise<SessionRecord> {
    const connector = this.connector(connectorId);
    if (!connector.session) throw new Error(`connector ${connectorId} has no session`);
    const session = this.endSession(connector);
    session.abandoned = 'forgotten';
    await this.setStatus(connector, status === 'Finishing' ? 'Finishing' : this.idleStatus(connector));
    return session;
  }

  /**
   * A delayed or planned session waits (SuspendedEV: the bus does not take power; SuspendedEVSE: the
   * charger holds it back): the transaction goes on at 0 kW, meter values keep coming, until `resumeSession`.
   */
  async suspendSession(connectorId: number, status: 'SuspendedEV' | 'SuspendedEVSE'): Promise<void> {
    const connector = this.connector(connectorId);
    if (!connector.session) throw new Error(`connector ${connectorId} has no session`);
    connector.suspended = true;
    await this.setStatus(connector, status);
  }

  async resumeSession(connectorId: number): Promise<void> {
    const connector = this.connector(connectorId);
    if (!connector.session) throw new Error(`connector ${connectorId} has no session`);
    connector.suspended = false;
    await this.setStatus(connector, 'Charging');
  }

  /** The bus unplugs: a gun left Finishing after a held stop reports Available (or Unavailable). */
  async unplug(connectorId: number): Promise<void> {
    const connector = this.connector(connectorId);
    connector.holdAfterStop = false;
    if (connector.session || connector.status !== 'Finishing') return;
    await this.setStatus(connector, this.idleStatus(connector));
  }

  /** Wait until every queued transaction message has been answered. */
  async drained(timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.queue.length) {
      if (Date.now() > deadline)
        throw new Error(`${this.chargePointId}: ${this.queue.length} transaction messages still queued`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  // --- connection --------------------------------------------------------------------------

  private async open(): Promise<void> {
    const client = new RPCClient({
      endpoint: this.options.url,
      identity: this.chargePointId,
      password: this.options.password ?? null,
      protocols: ['ocpp1.6'],
      strictMode: true,
      reconnect: false,
      callTimeoutMs: this.options.callTimeoutMs ?? 10_000,
    } as ConstructorParameters<typeof RPCClient>[0]);
    this.registerHandlers(client);
    client.on('message', ({ message, outbound }: { message: string; outbound: boolean }) => {
      if (!outbound) this.acceptRawReply(message);
    });
    client.once('close', () => {
      if (this.client !== client) return;
      this.isOpen = false;
      this.clearTimers();
      for (const waiter of this.rawWaiters.values()) {
        clearTimeout(waiter.timer);
        waiter.reject(new Error('connection lost'));
      }
      this.rawWaiters.clear();
      if (this.wantOnline) this.scheduleReconnect();
    });
    this.client = client;
    await client.connect();
    this.isOpen = true;
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(async () => {
      this.reconnectTimer = undefined;
      if (!this.wantOnline) return;
      try {
        await this.open();
        await this.afterReconnect();
      } catch (error) {
        this.log(`reconnect failed: ${(error as Error).message}`);
        if (this.wantOnline) this.scheduleReconnect();
      }
    }, this.options.reconnectDelayMs ?? 1_000);
    this.reconnectTimer.unref();
  }

  private async afterReconnect(): Promise<void> {
    if (this.registrationStatus !== 'Accepted') {
      await this.boot();
      return;
    }
    this.startHeartbeat();
    for (const connector of this.connectors.values()) await this.sendStatus(connector);
    await this.queue.pump();
  }

  private async boot(): Promise<void> {
    for (;;) {
      const conf = await this.call<{ status: RegistrationStatus; interval: number }>('BootNotification', {
        chargePointVendor: this.options.vendor ?? 'Voltdepot',
        chargePointModel: this.options.model ?? 'SimBus-150',
        chargePointSerialNumber: `SN-${this.chargePointId}`,
        firmwareVersion: this.options.firmwareVersion ?? '1.0.0',
      });
      this.registrationStatus = conf.status;
      this.emit('boot', conf.status);
      if (conf.status === 'Accepted') {
        if (conf.interval > 0) this.configuration.set('HeartbeatInterval', String(conf.interval));
        break;
      }
      const waitMs = Math.min(
        conf.interval * 1000 || 10_000,
        this.options.bootRetryMs ?? Number.POSITIVE_INFINITY,
      );
      await new Promise((r) => setTimeout(r, waitMs));
      if (!this.isOpen) return;
    }
    this.startHeartbeat();
    await this.sendStatus(undefined);
    for (const connector of this.connectors.values()) await this.sendStatus(connector);
    await this.queue.pump();
  }

  private startHeartbeat(): void {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    const seconds = Number(this.configuration.get('HeartbeatInterval') ?? '300');
    this.heartbeatTimer = setInterval(() => {
      this.call('Heartbeat', {}).catch(() => undefined);
    }, seconds * 1000);
    this.heartbeatTimer.unref();
  }

  private clearTimers(): void {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = undefined;
  }

  private async send(
    action: string,
    params: Record<string, unknown>,
    messageId: string | undefined,
  ): Promise<unknown> {
    return messageId ? this.sendWithMessageId(action, params, messageId) : this.call(action, params);
  }

  private acceptRawReply(message: string): void {
    if (!this.rawWaiters.size) return;
    try {
      const frame = JSON.parse(message) as unknown[];
      const waiter = typeof frame[1] === 'string' ? this.rawWaiters.get(frame[1]) : undefined;
      if (!waiter || (frame[0] !== 3 && frame[0] !== 4)) return;
      this.rawWaiters.delete(frame[1] as string);
      clearTimeout(waiter.timer);
      if (frame[0] === 3) waiter.resolve(frame[2]);
      else waiter.reject(Object.assign(new Error(String(frame[3])), { rpcErrorCode: String(frame[2]) }));
    } catch {
      // not ours
    }
  }

  // --- charging ---------------------------------------------------------------------------

  private startMeter(connector: Connector, autoStop: boolean, fullStopReason: StopReason): void {
    const intervalMs =
      Number(this.configuration.get('MeterValueSampleInterval') ?? '1') * 1000 ||
      this.options.meterIntervalMs ||
      1000;
    const realMs = this.options.meterIntervalMs ?? intervalMs;
    const timeScale = this.options.timeScale ?? 1;
    connector.meterTimer = setInterval(() => {
      const session = connector.session;
      const battery = connector.battery;
      if (!session || !battery) return;
      const at = this.clock.now();
      battery.powerLimitW = connector.suspended ? 0 : this.powerLimitW(connector.id);
      if (this.options.clock) {
        const elapsedMs = at - (connector.lastReadingAt ?? at);
        if (elapsedMs < (this.options.minSampleSpacingMs ?? 0)) return;
        connector.meterWh += battery.charge(Math.max(0, elapsedMs) / 1000);
      } else {
        connector.meterWh += battery.charge((realMs / 1000) * timeScale);
      }
      connector.lastReadingAt = at;
      session.energyWh = this.wholeRegister(connector) - session.meterStartWh;
      const timestamp = new Date(at).toISOString();
      const register = this.register(connector);
      session.readings.push({ at: timestamp, energyWh: Number(register) });
      const powerW = battery.powerW();
      const soc = Math.floor(battery.soc * 10) / 10;
      void this.queue
        .enqueue('MeterValues', () => ({
          connectorId: connector.id,
          ...(session.transactionId !== undefined ? { transactionId: session.transactionId } : {}),
          meterValue: [
            {
              timestamp,
              sampledValue: [
                {
                  value: register,
                  measurand: 'Energy.Active.Import.Register',
                  unit: 'Wh',
                  context: 'Sample.Periodic',
                },
                {
                  value: String(powerW),
                  measurand: 'Power.Active.Import',
                  unit: 'W',
                  context: 'Sample.Periodic',
                },
                {
                  value: String(soc),
                  measurand: 'SoC',
                  unit: 'Percent',
                  location: 'EV',
                  context: 'Sample.Periodic',
                },
              ],
            },
          ],
        }))
        .catch((error: Error) => this.log(`MeterValues dropped: ${error.message}`));
      if (autoStop && battery.full)
        void this.stopSession(connector.id, fullStopReason).catch(() => undefined);
    }, realMs);
  }

  private energySample(timestamp: string, value: string, context: 'Transaction.Begin' | 'Transaction.End') {
    return {
      timestamp,
      sampledValue: [{ value, measurand: 'Energy.Active.Import.Register', unit: 'Wh', context }],
    };
  }

  /** The energy register as the pile's samples carry it (see `decimalRegister`). */
  private register(connector: Connector): string {
    return registerText(connector.meterWh, this.options.decimalRegister ?? false);
  }

  /** The register in whole Wh, as meterStart and meterStop carry it. */
  private wholeRegister(connector: Connector): number {
    return wholeRegisterWh(connector.meterWh, this.options.decimalRegister ?? false);
  }

  /**
   * The session on `connector` is over for the pile (stopped, or abandoned): metering ends and the record
   * gets its end (the register, the time and, when the pile gives one, the reason).
   */
  private endSession(connector: Connector, reason?: StopReason): SessionRecord {
    const session = connector.session!;
    if (connector.meterTimer) clearInterval(connector.meterTimer);
    connector.meterTimer = undefined;
    connector.session = undefined;
    const stoppedAt = this.clock.now();
    // On a clock, the bus charged up to the stop: energy stays power x time.
    if (this.options.clock && connector.battery && connector.lastReadingAt !== undefined) {
      connector.battery.powerLimitW = connector.suspended
        ? 0
        : activeLimitW(this.profiles, {
            connectorId: connector.id,
            at: connector.lastReadingAt,
            transactionStartedAt: Date.parse(session.startedAt),
            transactionId: session.transactionId,
            voltageV: this.options.voltageV ?? 400,
          });
      connector.meterWh += connector.battery.charge(Math.max(0, stoppedAt - connector.lastReadingAt) / 1000);
    }
    connector.suspended = false;
    // A TxProfile lives as long as its transaction.
    this.profiles = this.profiles.filter(
      (p) => p.connectorId !== connector.id || p.profile.chargingProfilePurpose !== 'TxProfile',
    );
    session.meterStopWh = this.wholeRegister(connector);
    session.energyWh = session.meterStopWh - session.meterStartWh;
    session.stoppedAt = new Date(stoppedAt).toISOString();
    if (reason) {
      session.reason = reason;
      session.stopKind = stopKindOf(reason).stopKind;
    }
    session.readings.push({ at: session.stoppedAt, energyWh: session.meterStopWh });
    session.endSoc = connector.battery?.soc;
    return session;
  }

  /** Every session on the pile ends without a StopTransaction; the guns are idle (nothing is reported). */
  private abandonAll(how: AbandonHow, reason?: StopReason): SessionRecord[] {
    const sessions: SessionRecord[] = [];
    for (const connector of this.connectors.values()) {
      if (!connector.session) continue;
      const session = this.endSession(connector, reason);
      session.abandoned = how;
      connector.status = this.idleStatus(connector);
      sessions.push(session);
    }
    return sessions;
  }

  /**
   * Queue a StopTransaction of `session` (its transactionId as known when sent); `announce` emits
   * 'transactionStopped' once it is answered (not for a repeated stop); `answered` runs then too (a
   * replayed stop emits 'stopReplayed', so a test knows the gateway had it).
   */
  private enqueueStop(
    session: SessionRecord,
    stop: { meterStop: number; timestamp: string; reason: StopReason; transactionData?: unknown[] },
    announce = true,
    answered?: () => void,
  ): void {
    void this.queue
      .enqueue('StopTransaction', () => ({
        transactionId: session.transactionId ?? -1,
        idTag: session.idTag,
        meterStop: stop.meterStop,
        timestamp: stop.timestamp,
        reason: stop.reason,
        ...(stop.transactionData ? { transactionData: stop.transactionData } : {}),
      }))
      .then(
        () => {
          if (announce) this.emit('transactionStopped', session);
          answered?.();
        },
        (error: Error) => this.log(`StopTransaction dropped: ${error.message}`),
      );
  }

  private connector(connectorId: number): Connector {
    const connector = this.connectors.get(connectorId);
    if (!connector) throw new Error(`${this.chargePointId} has no connector ${connectorId}`);
    return connector;
  }

  private async setStatus(connector: Connector, status: ChargePointStatus): Promise<void> {
    connector.status = status;
    this.emit('status', connector.id, status);
    await this.sendStatus(connector);
  }

  /** Report a fault on an idle gun (e.g. 'GroundFailure'), as a real pile does; `clearFault` ends it. */
  async reportFault(connectorId: number, errorCode: string, info?: string): Promise<void> {
    const connector = this.connector(connectorId);
    if (connector.session) throw new Error(`connector ${connectorId} is charging`);
    connector.status = 'Faulted';
    await this.sendStatus(connector, errorCode, info);
  }

  async clearFault(connectorId: number): Promise<void> {
    const connector = this.connector(connectorId);
    await this.setStatus(connector, this.idleStatus(connector));
  }

  /** What an idle gun shows: Unavailable when taken out of service, Reserved while held, else Available. */
  private idleStatus(connector: Connector): ChargePointStatus {
    if (!connector.available) return 'Unavailable';
    return this.liveReservation(connector) ? 'Reserved' : 'Available';
  }

  /** Status notifications are not queued: after a reconnect the pile reports its current status instead. */
  private async sendStatus(
    connector: Connector | undefined,
    errorCode = 'NoError',
    info?: string,
  ): Promise<void> {
    if (!this.isOpen || this.registrationStatus !== 'Accepted') return;
    await this.call('StatusNotification', {
      connectorId: connector?.id ?? 0,
      errorCode,
      ...(info ? { info } : {}),
      status: connector ? connector.status : 'Available',
      timestamp: new Date(this.clock.now()).toISOString(),
    }).catch((error: Error) => this.log(`StatusNotification failed: ${error.message}`));
  }

  private log(line: string): void {
    this.options.log?.(`[${this.chargePointId}] ${line}`);
  }

  // --- commands from the central system -------------------------------------------------------

  /**
   * Answer a central-system command as the pile does over the socket (side effects such as status
   * notifications follow shortly after the answer). Exposed for tests that drive the pile without a
   * central system.
   */
  handleCommand<A extends CentralSystemAction>(
    action: A,
    params: CentralSystemMessages[A][0],
  ): Promise<CentralSystemMessages[A][1]> {
    const handler = this.commandHandlers[action] as (
      p: CentralSystemMessages[A][0],
    ) => Promise<CentralSystemMessages[A][1]>;
    return handler(params);
  }

  private registerHandlers(client: RPCClient): void {
    // ocpp-rpc has validated params against the schema (strict mode) before a handler runs.
    for (const action of CentralSystemActions)
      client.handle(action, ({ params }: { params?: unknown }) =>
        this.handleCommand(action, (params ?? {}) as never),
      );
  }

  private later(work: () => Promise<unknown>, delayMs = 10): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void work().catch((e: Error) => this.log(e.message));
    }, delayMs);
    this.timers.add(timer);
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      timer.unref();
      this.timers.add(timer);
    });
  }

  /** A notification that is not queued: sent when online, else only recorded (and emitted). */
  private async notify(action: string, params: Record<string, unknown>): Promise<void> {
    if (!this.isOpen || this.registrationStatus !== 'Accepted') {
      this.log(`${action} not sent (offline)`);
      return;
    }
    await this.call(action, params).catch((error: Error) => this.log(`${action} failed: ${error.message}`));
  }

  private async setFirmwareStatus(status: FirmwareStatus): Promise<void> {
    this.firmwareStatus = status;
    this.emit('firmwareStatus', status);
    await this.notify('FirmwareStatusNotification', { status });
  }

  private async setDiagnosticsStatus(status: DiagnosticsStatus): Promise<void> {
    this.diagnosticsStatus = status;
    this.emit('diagnosticsStatus', status);
    await this.notify('DiagnosticsStatusNotification', { status });
  }

  /** The connector's reservation unless it has expired (by the pile's clock). */
  private liveReservation(connector: Connector): Reservation | undefined {
    const reservation = connector.reservation;
    if (reservation && Date.parse(reservation.expiryDate) <= this.clock.now()) {
      this.dropReservation(connector);
      return undefined;
    }
    return reservation;
  }

  private dropReservation(connector: Connector): void {
    if (connector.reservationTimer) clearTimeout(connector.reservationTimer);
    connector.reservationTimer = undefined;
    connector.reservation = undefined;
  }

  private reserve(connector: Connector, reservation: Reservation): void {
    this.dropReservation(connector);
    connector.reservation = reservation;
    const expireInMs = Math.max(0, Date.parse(reservation.expiryDate) - this.clock.now());
    connector.reservationTimer = setTimeout(
      () => {
        if (connector.reservation !== reservation) return;
        this.dropReservation(connector);
        this.emit('reservationExpired', reservation);
        if (!connector.session && connector.status === 'Reserved')
          void this.setStatus(connector, this.idleStatus(connector));
      },
      Math.min(expireInMs, 2 ** 31 - 1),
    );
    connector.reservationTimer.unref();
    // The status changes with the answer; the notification follows it.
    connector.status = 'Reserved';
    this.later(() => this.sendStatus(connector));
  }

  private installProfile(connectorId: number, profile: ChargingProfile): void {
    // A profile replaces one with the same id, or with the same purpose and stack level on the connector.
    this.profiles = this.profiles.filter(
      (p) =>
        p.profile.chargingProfileId !== profile.chargingProfileId &&
        !(
          p.connectorId === connectorId &&
          p.profile.chargingProfilePurpose === profile.chargingProfilePurpose &&
          p.profile.stackLevel === profile.stackLevel
        ),
    );
    this.profiles.push({ connectorId, profile });
  }

  private configNumber(key: string, fallback: number): number {
    const value = Number(this.configuration.get(key));
    return Number.isFinite(value) ? value : fallback;
  }

  private readonly commandHandlers: CommandHandlers = {
    RemoteStartTransaction: async ({ connectorId: requested, idTag, chargingProfile }) => {
      const usable = (c: Connector) => {
        const reservation = this.liveReservation(c);
        return (
          !c.session &&
          c.available &&
          c.status !== 'Faulted' &&
          (!reservation || reservation.idTag === idTag || reservation.parentIdTag === idTag)
        );
      };
      const connector =
        requested !== undefined ? this.connectors.get(requested) : [...this.connectors.values()].find(usable);
      if (!connector || !usable(connector)) return { status: 'Rejected' };
      if (chargingProfile && chargingProfile.chargingProfilePurpose !== 'TxProfile')
        return { status: 'Rejected' };
      this.later(async () => {
        await this.startSession(connector.id, idTag);
        if (chargingProfile && this.supports('SmartCharging'))
          this.installProfile(connector.id, chargingProfile);
      });
      return { status: 'Accepted' };
    },
    RemoteStopTransaction: async ({ transactionId }) => {
      const connector = [...this.connectors.values()].find((c) => c.session?.transactionId === transactionId);
      if (!connector) return { status: 'Rejected' };
      this.later(() => this.stopSession(connector.id, 'Remote'));
      return { status: 'Accepted' };
    },
    Reset: async ({ type }) => {
      const hard = type === 'Hard';
      this.later(async () => {
        for (const connector of this.connectors.values()) {
          if (connector.session) await this.stopSession(connector.id, hard ? 'HardReset' : 'SoftReset');
        }
        // Reboot: drop the connection and boot again.
        this.registrationStatus = undefined;
        await this.client?.close({ code: 1000, reason: 'Reset' }).catch(() => undefined);
      });
      return { status: 'Accepted' };
    },
    UnlockConnector: async ({ connectorId }) => {
      const connector = this.connectors.get(connectorId);
      if (!connector) return { status: 'NotSupported' };
      if (connector.session) this.later(() => this.stopSession(connector.id, 'UnlockCommand'));
      return { status: 'Unlocked' };
    },
    ChangeAvailability: async ({ connectorId, type }) => {
      const available = type === 'Operative';
      const targets =
        connectorId === 0
          ? [...this.connectors.values()]
          : [this.connectors.get(connectorId)].filter((c): c is Connector => !!c);
      if (!targets.length) return { status: 'Rejected' };
      let scheduled = false;
      for (const connector of targets) {
        connector.available = available;
        if (connector.session) scheduled = true;
        else this.later(() => this.setStatus(connector, this.idleStatus(connector)));
      }
      return { status: scheduled && !available ? 'Scheduled' : 'Accepted' };
    },
    GetConfiguration: async ({ key }) => {
      const keys = key ?? [...this.configuration.keys()];
      const known = keys.filter((k) => this.configuration.has(k));
      return {
        configurationKey: known.map((k) => ({
          key: k,
          readonly: CONFIGURATION_READONLY.has(k),
          value: this.configuration.get(k),
        })),
        unknownKey: keys.filter((k) => !this.configuration.has(k)),
      };
    },
    ChangeConfiguration: async ({ key, value }) => {
      if (!this.configuration.has(key)) return { status: 'NotSupported' };
      if (CONFIGURATION_READONLY.has(key)) return { status: 'Rejected' };
      this.configuration.set(key, value);
      if (key === 'HeartbeatInterval') this.startHeartbeat();
      return { status: 'Accepted' };
    },
    TriggerMessage: async ({ requestedMessage, connectorId }) => {
      if (!this.supports('RemoteTrigger')) return { status: 'NotImplemented' };
      const busy = (s: string) => !['Idle', 'Installed', 'Uploaded'].includes(s);
      const work: Record<MessageTrigger, () => Promise<unknown>> = {
        BootNotification: () => this.boot(),
        Heartbeat: () => this.call('Heartbeat', {}),
        StatusNotification: () =>
          connectorId ? this.sendStatus(this.connector(connectorId)) : this.sendStatus(undefined),
        DiagnosticsStatusNotification: () =>
          this.call('DiagnosticsStatusNotification', {
            status: busy(this.diagnosticsStatus) ? this.diagnosticsStatus : 'Idle',
          }),
        FirmwareStatusNotification: () =>
          this.call('FirmwareStatusNotification', {
            status: busy(this.firmwareStatus) ? this.firmwareStatus : 'Idle',
          }),
        MeterValues: () => {
          const connector = this.connector(connectorId || 1);
          const timestamp = new Date(this.clock.now()).toISOString();
          return this.call('MeterValues', {
            connectorId: connector.id,
            ...(connector.session?.transactionId !== undefined
              ? { transactionId: connector.session.transactionId }
              : {}),
            meterValue: [
              {
                timestamp,
                sampledValue: [
                  {
                    value: this.register(connector),
                    measurand: 'Energy.Active.Import.Register',
                    unit: 'Wh',
                    context: 'Trigger',
                  },
                ],
              },
            ],
          });
        },
      };
      const action = work[requestedMessage];
      if (!action || (connectorId !== undefined && connectorId !== 0 && !this.connectors.has(connectorId)))
        return { status: 'Rejected' };
      this.later(action);
      return { status: 'Accepted' };
    },
    ClearCache: async () => ({ status: 'Accepted' }),
    DataTransfer: async ({ vendorId, messageId, data }) => {
      // One vendor extension: 'Echo' under the pile's own vendor id returns the data it got.
      if (vendorId !== (this.options.vendor ?? 'Voltdepot')) return { status: 'UnknownVendorId' };
      if (messageId !== 'Echo') return { status: 'UnknownMessageId' };
      return { status: 'Accepted', ...(data !== undefined ? { data } : {}) };
    },
    GetLocalListVersion: async () => ({
      listVersion: this.supports('LocalAuthListManagement') ? this.localListVersion : -1,
    }),
    SendLocalList: async ({ listVersion, localAuthorizationList = [], updateType }) => {
      if (!this.supports('LocalAuthListManagement')) return { status: 'NotSupported' };
      if (listVersion <= this.localListVersion) return { status: 'VersionMismatch' };
      if (localAuthorizationList.length > this.configNumber('SendLocalListMaxLength', 1000))
        return { status: 'Failed' };
      const next = new Map(updateType === 'Full' ? [] : this.localAuthorizationList);
      for (const { idTag, idTagInfo } of localAuthorizationList) {
        if (idTagInfo) next.set(idTag, idTagInfo);
        else next.delete(idTag);
      }
      if (next.size > this.configNumber('LocalAuthListMaxLength', 1000)) return { status: 'Failed' };
      this.localAuthorizationList.clear();
      for (const [idTag, info] of next) this.localAuthorizationList.set(idTag, info);
      this.localListVersion = listVersion;
      return { status: 'Accepted' };
    },
    ReserveNow: async ({ connectorId, expiryDate, idTag, parentIdTag, reservationId }) => {
      const connector = this.connectors.get(connectorId);
      // Connector 0 (any gun) is not supported: ReserveConnectorZeroSupported is false.
      if (!this.supports('Reservation') || !connector) return { status: 'Rejected' };
      if (Date.parse(expiryDate) <= this.clock.now()) return { status: 'Rejected' };
      if (connector.status === 'Faulted') return { status: 'Faulted' };
      if (!connector.available || connector.status === 'Unavailable') return { status: 'Unavailable' };
      if (connector.session || BUSY.includes(connector.status)) return { status: 'Occupied' };
      const held = this.liveReservation(connector);
      if (held && held.reservationId !== reservationId) return { status: 'Occupied' };
      // A reservation id already held elsewhere moves here (OCPP: the new one replaces it).
      for (const other of this.connectors.values()) {
        if (other !== connector && other.reservation?.reservationId === reservationId) {
          this.dropReservation(other);
          this.later(() => this.setStatus(other, this.idleStatus(other)));
        }
      }
      this.reserve(connector, {
        reservationId,
        connectorId,
        idTag,
        ...(parentIdTag ? { parentIdTag } : {}),
        expiryDate,
      });
      return { status: 'Accepted' };
    },
    CancelReservation: async ({ reservationId }) => {
      const connector = [...this.connectors.values()].find(
        (c) => this.liveReservation(c)?.reservationId === reservationId,
      );
      if (!connector) return { status: 'Rejected' };
      this.dropReservation(connector);
      if (connector.status === 'Reserved')
        this.later(() => this.setStatus(connector, this.idleStatus(connector)));
      return { status: 'Accepted' };
    },
    SetChargingProfile: async ({ connectorId, csChargingProfiles: profile }) => {
      if (!this.supports('SmartCharging')) return { status: 'NotSupported' };
      const connector = this.connectors.get(connectorId);
      if (connectorId !== 0 && !connector) return { status: 'Rejected' };
      const purpose = profile.chargingProfilePurpose;
      if (purpose === 'ChargePointMaxProfile' && connectorId !== 0) return { status: 'Rejected' };
      if (purpose === 'TxProfile') {
        const session = connector?.session;
        if (!session) return { status: 'Rejected' };
        if (profile.transactionId !== undefined && profile.transactionId !== session.transactionId)
          return { status: 'Rejected' };
      }
      if (
        profile.stackLevel > this.configNumber('ChargeProfileMaxStackLevel', 10) ||
        profile.chargingSchedule.chargingSchedulePeriod.length >
          this.configNumber('ChargingScheduleMaxPeriods', 48) ||
        this.profiles.length >= this.configNumber('MaxChargingProfilesInstalled', 20)
      )
        return { status: 'Rejected' };
      this.installProfile(connectorId, profile);
      return { status: 'Accepted' };
    },
    ClearChargingProfile: async ({ id, connectorId, chargingProfilePurpose, stackLevel }) => {
      if (!this.supports('SmartCharging')) return { status: 'Unknown' };
      const matches = ({ connectorId: on, profile }: InstalledProfile) =>
        id !== undefined
          ? profile.chargingProfileId === id
          : (connectorId === undefined || on === connectorId) &&
            (chargingProfilePurpose === undefined ||
              profile.chargingProfilePurpose === chargingProfilePurpose) &&
            (stackLevel === undefined || profile.stackLevel === stackLevel);
      const before = this.profiles.length;
      this.profiles = this.profiles.filter((p) => !matches(p));
      return { status: this.profiles.length < before ? 'Accepted' : 'Unknown' };
    },
    GetCompositeSchedule: async ({ connectorId, duration, chargingRateUnit }) => {
      if (!this.supports('SmartCharging')) return { status: 'Rejected' };
      const connector = this.connectors.get(connectorId);
      if (connectorId !== 0 && !connector) return { status: 'Rejected' };
      const session = connector?.session;
      const maxPowerW = (this.options.maxPowerW ?? 150_000) * (connector ? 1 : this.connectors.size);
      const chargingSchedule = compositeSchedule(
        this.profiles,
        {
          connectorId,
          at: this.clock.now(),
          transactionStartedAt: session ? Date.parse(session.startedAt) : undefined,
          transactionId: session?.transactionId,
          voltageV: this.options.voltageV ?? 400,
        },
        duration,
        maxPowerW,
        chargingRateUnit ?? 'W',
      );
      return {
        status: 'Accepted',
        connectorId,
        scheduleStart: chargingSchedule.startSchedule,
        chargingSchedule,
      };
    },
    UpdateFirmware: async ({ location, retrieveDate }) => {
      if (!this.supports('FirmwareManagement'))
        throw createRPCError('NotSupported', 'FirmwareManagement is not supported');
      const stepMs = this.options.statusStepMs ?? 1000;
      const startInMs = Math.max(0, Date.parse(retrieveDate) - this.clock.now());
      this.log(`firmware update from ${location} in ${startInMs} ms`);
      this.later(async () => {
        for (const status of ['Downloading', 'Downloaded', 'Installing', 'Installed'] as const) {
          await this.setFirmwareStatus(status);
          if (status !== 'Installed') await this.wait(stepMs);
        }
      }, startInMs);
      return {};
    },
    GetDiagnostics: async ({ location }) => {
      if (!this.supports('FirmwareManagement'))
        throw createRPCError('NotSupported', 'FirmwareManagement is not supported');
      const stamp = new Date(this.clock.now()).toISOString().replace(/[-:.]/g, '');
      const fileName = `diagnostics-${this.chargePointId}-${stamp}.log`;
      this.log(`diagnostics ${fileName} to ${location}`);
      this.later(async () => {
        await this.setDiagnosticsStatus('Uploading');
        await this.wait(this.options.statusStepMs ?? 1000);
        await this.setDiagnosticsStatus('Uploaded');
      });
      return { fileName };
    },
  };

  /** A fresh message id (for tests that retransmit by hand). */
  static messageId(): string {
    return randomUUID();
  }
}
