import type { PayloadCompletion } from '@voltdepot/server-messaging';
import type {
  MeterSampleV1,
  MeterValuesV1,
  StopKind,
  TransactionStartedV1,
  TransactionStoppedV1,
} from '@voltdepot/shared-events';
import type {
  AuthorizationStatus,
  StartTransactionRequest,
  StopTransactionRequest,
} from '@voltdepot/shared-ocpp';
import type { NormalizedSample } from './meter-sample';

/*
 * The payloads of the transaction events, each built here and nowhere else. A writer announces its rows
 * in the statement that writes them, so some fields are known only there (the id PostgreSQL assigns, the
 * stored start of a transaction being stopped, the samples that turned out to be new): those are SQL over
 * the written row `w` (a completion, merged in by writtenRowsOutboxInsert), the rest is built below. Each
 * head is typed as its payload without the completed fields, so the two parts make the payload type
 * exactly (the event contract test checks what reaches the bus).
 */

/** TransactionStarted: the transaction id is PostgreSQL's, from the row the start statement inserted. */
export const STARTED_COMPLETION = { transactionId: 'w.transaction_id' } as const satisfies PayloadCompletion<
  TransactionStartedV1,
  'transactionId'
>;

export function startedHead(
  chargePointId: string,
  req: StartTransactionRequest,
  idTagStatus: AuthorizationStatus,
  startedAt: string,
): Omit<TransactionStartedV1, keyof typeof STARTED_COMPLETION> {
  return {
    chargePointId,
    connectorId: req.connectorId,
    idTag: req.idTag,
    idTagStatus,
    meterStartWh: req.meterStart,
    timestamp: startedAt,
    ...(req.reservationId !== undefined ? { reservationId: req.reservationId } : {}),
  };
}

/** A StopTransaction as the stop writer reads it: its instant and effective reason parsed once. */
export type ParsedStop = {
  chargePointId: string;
  req: StopTransactionRequest;
  timestamp: string;
  reason: string;
  stopKind: StopKind;
};

/**
 * TransactionStopped of a transaction we know: connector, transaction, tag (the stop's, else the start's),
 * meter start and energy come from the row the stop statement updated (`w`: its RETURNING columns).
 */
export const STOPPED_COMPLETION = {
  connectorId: 'w.connector_id',
  transactionId: 'w.transaction_id',
  idTag: 'COALESCE(w.tag, w.id_tag)',
  meterStartWh: 'w.meter_start_wh',
  energyWh: 'w.meter_stop - w.meter_start_wh',
} as const satisfies PayloadCompletion<
  TransactionStoppedV1,
  'connectorId' | 'transactionId' | 'idTag' | 'meterStartWh' | 'energyWh'
>;

export function stoppedHead(stop: ParsedStop): Omit<TransactionStoppedV1, keyof typeof STOPPED_COMPLETION> {
  return {
    chargePointId: stop.chargePointId,
    meterStopWh: stop.req.meterStop,
    timestamp: stop.timestamp,
    reason: stop.reason,
    stopKind: stop.stopKind,
    quarantined: false,
  };
}

/**
 * TransactionStopped of a transaction this system never gave (quarantined): all of it from the stop, with
 * no connector (0) and no start values.
 */
export function quarantinedStopPayload(stop: ParsedStop): TransactionStoppedV1 {
  const { req } = stop;
  return {
    chargePointId: stop.chargePointId,
    connectorId: 0,
    transactionId: req.transactionId,
    ...(req.idTag ? { idTag: req.idTag } : {}),
    meterStopWh: req.meterStop,
    timestamp: stop.timestamp,
    reason: stop.reason,
    stopKind: stop.stopKind,
    quarantined: true,
  };
}

/**
 * MeterValuesReceived announces the samples of a message that turned out to be new: the statement
 * aggregates them (each as publishedSample made it, in message order) from the rows it inserted (`w`).
 */
export const METER_VALUES_COMPLETION = {
  samples: 'jsonb_agg(w.sample ORDER BY w.pos)',
  flagged: 'bool_or(w.flag IS NOT NULL)',
} as const satisfies PayloadCompletion<MeterValuesV1, 'samples' | 'flagged'>;

/** ...and occurs at the first of them. */
export const METER_VALUES_OCCURRED_AT = '(array_agg(w.sampled_at ORDER BY w.pos))[1]';

export function meterValuesHead(
  chargePointId: string,
  connectorId: number,
  transactionId: number | undefined,
): Omit<MeterValuesV1, keyof typeof METER_VALUES_COMPLETION> {
  return { chargePointId, connectorId, ...(transactionId !== undefined ? { transactionId } : {}) };
}

/** A sample as MeterValuesReceived carries it (empty qualifiers left out). */
export function publishedSample(sample: NormalizedSample, flag: string | undefined): MeterSampleV1 {
  return {
    timestamp: sample.sampledAt,
    measurand: sample.measurand,
    value: sample.value,
    ...(sample.unit ? { unit: sample.unit } : {}),
    ...(sample.phase ? { phase: sample.phase } : {}),
    ...(sample.location ? { location: sample.location } : {}),
    ...(sample.context ? { context: sample.context } : {}),
    ...(flag ? { flag } : {}),
  };
}
