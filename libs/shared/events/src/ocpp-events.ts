import { defineEvent } from './define-event';
import { Topics } from './topics';

/** How a transaction ended, as the operator sees it: normal stops are driver/vehicle initiated. */
export type StopKind = 'normal' | 'abnormal';

export type PileConnectedV1 = { chargePointId: string; replicaId: string; remoteAddress?: string };
export type PileDisconnectedV1 = { chargePointId: string; replicaId: string; code?: number; reason?: string };
export type PileBootedV1 = {
  chargePointId: string;
  vendor: string;
  model: string;
  firmwareVersion?: string;
  serialNumber?: string;
  registrationStatus: 'Accepted' | 'Pending' | 'Rejected';
};
export type ConnectorStatusChangedV1 = {
  chargePointId: string;
  connectorId: number;
  /** OCPP 1.6 ChargePointStatus. */
  status: string;
  errorCode: string;
  info?: string;
  vendorErrorCode?: string;
  timestamp: string;
};
/**
 * The alarm-code registry's entry for a pile error (`alarm_code` of the pile's protocol, matched on the
 * vendorErrorCode first, then the OCPP errorCode); absent when the registry has none.
 */
export type PileAlarmV1 = {
  /** The registry code that matched (the vendorErrorCode or the errorCode). */
  code: string;
  name: string;
  /** Alarm level 0 (none) to 3. */
  level: number;
  category: string;
  description?: string;
};
/**
 * A connector (or connector 0, the whole pile) entered an error: raised once when its errorCode (or
 * vendorErrorCode) changes to something other than NoError, not on repeats of the same error.
 */
export type PileErrorV1 = ConnectorStatusChangedV1 & { alarm?: PileAlarmV1 };
/** The error a PileError announced is over: the connector reported NoError, or a different error. */
export type PileErrorClearedV1 = {
  chargePointId: string;
  connectorId: number;
  /** The error that ended, as its PileError announced it. */
  errorCode: string;
  vendorErrorCode?: string;
  /** When the error began (the timestamp of the notification that raised it). */
  since: string;
  /** When it ended (the timestamp of the notification that cleared it). */
  clearedAt: string;
  /** The connector's status and error code at that moment (NoError, or the next error). */
  status: string;
  currentErrorCode: string;
  alarm?: PileAlarmV1;
};

export type TransactionStartedV1 = {
  chargePointId: string;
  connectorId: number;
  transactionId: number;
  idTag: string;
  meterStartWh: number;
  timestamp: string;
  reservationId?: number;
  /** What the central system answered for the tag; the pile stops the transaction unless Accepted. */
  idTagStatus: string;
};
export type MeterSampleV1 = {
  timestamp: string;
  measurand: string;
  value: number;
  unit?: string;
  phase?: string;
  location?: string;
  context?: string;
  /** Set when the value is implausible but kept: 'negative', 'decreasing', 'jump' (faster than any charger), 'unparseable', 'unknown-transaction'. */
  flag?: string;
};
export type MeterValuesV1 = {
  chargePointId: string;
  connectorId: number;
  transactionId?: number;
  samples: MeterSampleV1[];
  /** True when any sample carries a flag. */
  flagged: boolean;
};
export type TransactionStoppedV1 = {
  chargePointId: string;
  connectorId: number;
  transactionId: number;
  idTag?: string;
  /** Absent for a quarantined stop (we never saw the start). */
  meterStartWh?: number;
  meterStopWh: number;
  /** meterStop - meterStart; absent when quarantined. Negative values are reported as they came. */
  energyWh?: number;
  timestamp: string;
  /** OCPP 1.6 stop reason (Local when the pile sent none). */
  reason: string;
  stopKind: StopKind;
  /** True when the transaction was unknown to us and was quarantined for reconciliation. */
  quarantined: boolean;
  /**
   * True when the gateway had already closed the session by rule (TransactionAbandoned) and the pile's
   * real StopTransaction came later (a pile replaying its queue): it completes the order of the
   * abandoned session instead of making a second one.
   */
  afterAbandon?: boolean;
};

/** Which of the gateway's rules closed a session its pile never stopped. */
export type AbandonRule =
  /** The pile booted again and reported the connector Available (or booted with no session on it). */
  | 'rebooted'
  /** A new StartTransaction arrived on the same connector. */
  | 'newStart'
  /** The connector reported Available or Finishing for longer than the configured grace. */
  | 'connectorIdle'
  /** The session was older than the configured maximum age (longer than a night by default). */
  | 'maxAge';

/**
 * A session the pile apparently will never stop (it went away mid-session: power loss, reboot,
 * shutdown), closed by one of the gateway's rules. Its card is free again. Settlement makes it a
 * lost-stop order held for review, priced from the last meter reading of the session. Never emitted for a
 * session suspended at 0 kW (SuspendedEV / SuspendedEVSE), however long.
 */
export type TransactionAbandonedV1 = {
  chargePointId: string;
  connectorId: number;
  transactionId: number;
  idTag: string;
  meterStartWh: number;
  /** The last energy register (Wh, may carry decimals) sampled within the session; absent when none. */
  lastMeterWh?: number;
  /** When that sample was taken (the pile's clock). */
  lastSampleAt?: string;
  /** The StartTransaction's timestamp. */
  startedAt: string;
  /** When the gateway closed the session. */
  closedAt: string;
  rule: AbandonRule;
};

/**
 * A second StopTransaction for a transaction already stopped (another message id; a pile may send one
 * with another reason and a higher meterStop). The first stop stands: it was acknowledged and is the one
 * billed. This one is recorded so that settlement can flag the order for review when it disagrees.
 */
export type TransactionStopRepeatedV1 = {
  chargePointId: string;
  connectorId: number;
  transactionId: number;
  meterStopWh: number;
  timestamp: string;
  /** OCPP 1.6 stop reason of the repeat (Local when the pile sent none). */
  reason: string;
  /** The first (billed) stop. */
  firstMeterStopWh: number;
  firstTimestamp: string;
  firstReason: string;
  /** The repeat disagrees with the first stop: another meterStop or another reason. */
  disagrees: boolean;
};

/** DiagnosticsStatusNotification: progress of a GetDiagnostics upload. */
export type DiagnosticsStatusChangedV1 = {
  chargePointId: string;
  /** OCPP 1.6 DiagnosticsStatus: Idle, Uploaded, UploadFailed, Uploading. */
  status: string;
  /** When the central system received the notification (OCPP 1.6 sends no time). */
  timestamp: string;
};
/** FirmwareStatusNotification: progress of an UpdateFirmware download and installation. */
export type FirmwareStatusChangedV1 = {
  chargePointId: string;
  /** OCPP 1.6 FirmwareStatus: Downloaded, DownloadFailed, Downloading, Idle, InstallationFailed, Installing, Installed. */
  status: string;
  /** When the central system received the notification (OCPP 1.6 sends no time). */
  timestamp: string;
};

export const PileConnected = defineEvent<PileConnectedV1>()(Topics.OcppStatus, 'pile.connected', 1);
export const PileDisconnected = defineEvent<PileDisconnectedV1>()(Topics.OcppStatus, 'pile.disconnected', 1);
export const PileBooted = defineEvent<PileBootedV1>()(Topics.OcppStatus, 'pile.booted', 1);
export const ConnectorStatusChanged = defineEvent<ConnectorStatusChangedV1>()(
  Topics.OcppStatus,
  'connector.status-changed',
  1,
);
export const PileError = defineEvent<PileErrorV1>()(Topics.OcppStatus, 'pile.error', 1);
export const PileErrorCleared = defineEvent<PileErrorClearedV1>()(Topics.OcppStatus, 'pile.error-cleared', 1);
export const TransactionStarted = defineEvent<TransactionStartedV1>()(
  Topics.OcppTransactions,
  'transaction.started',
  1,
);
export const MeterValuesReceived = defineEvent<MeterValuesV1>()(
  Topics.OcppTransactions,
  'meter-values.received',
  1,
);
export const TransactionStopped = defineEvent<TransactionStoppedV1>()(
  Topics.OcppTransactions,
  'transaction.stopped',
  1,
);
export const TransactionAbandoned = defineEvent<TransactionAbandonedV1>()(
  Topics.OcppTransactions,
  'transaction.abandoned',
  1,
);
export const TransactionStopRepeated = defineEvent<TransactionStopRepeatedV1>()(
  Topics.OcppTransactions,
  'transaction.stop-repeated',
  1,
);
export const DiagnosticsStatusChanged = defineEvent<DiagnosticsStatusChangedV1>()(
  Topics.OcppStatus,
  'diagnostics.status-changed',
  1,
);
export const FirmwareStatusChanged = defineEvent<FirmwareStatusChangedV1>()(
  Topics.OcppStatus,
  'firmware.status-changed',
  1,
);
