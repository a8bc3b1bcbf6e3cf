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
export type PileErrorV1 = ConnectorStatusChangedV1;

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
