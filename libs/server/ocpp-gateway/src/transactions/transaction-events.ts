import { writtenRowsOutboxInsert, type PayloadCompletion } from '@voltdepot/server-messaging';
import { TransactionAbandoned } from '@voltdepot/shared-events';
import type {
  AbandonRule,
  MeterSampleV1,
  MeterValuesV1,
  StopKind,
  TransactionAbandonedV1,
  TransactionStartedV1,
  TransactionStoppedV1,
  TransactionStopRepeatedV1,
} from '@voltdepot/shared-events';
import type {
  AuthorizationStatus,
  StartTransactionRequest,
  StopTransactionRequest,
} from '@voltdepot/shared-ocpp';
import { ENERGY_REGISTER, type NormalizedSample } from './meter-sample';

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
 * meter start and energy come from the row the stop statement updated (`w`: its RETURNING columns), and
 * `afterAbandon` (only when true: an optional field, see STOPPED_OPTIONAL) from whether a rule had closed
 * the session before this stop came.
 */
export const STOPPED_COMPLETION = {
  connectorId: 'w.connector_id',
  transactionId: 'w.transaction_id',
  idTag: 'COALESCE(w.tag, w.id_tag)',
  meterStartWh: 'w.meter_start_wh',
  energyWh: 'w.meter_stop - w.meter_start_wh',
  afterAbandon: 'CASE WHEN w.abandoned_at IS NOT NULL THEN true END',
} as const satisfies PayloadCompletion<
  TransactionStoppedV1,
  'connectorId' | 'transactionId' | 'idTag' | 'meterStartWh' | 'energyWh' | 'afterAbandon'
>;
export const STOPPED_OPTIONAL = ['afterAbandon'] as const;

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
 * aggregates them (each as publishedSample made it, in message order) from the rows it inserted that have
 * one (`w`); a message none of whose new samples can be announced has no event.
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

/**
 * A sample as MeterValuesReceived carries it (empty qualifiers left out). A value that is not a number
 * (flagged unparseable) is not announced, MeterSampleV1's value being a number: it is stored with its
 * flag, counted, and kept in the message log as the pile sent it.
 */
export function publishedSample(
  sample: NormalizedSample,
  flag: string | undefined,
): MeterSampleV1 | undefined {
  if (Number.isNaN(sample.value)) return undefined;
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

/** A timestamptz column as the events carry instants (`Date.prototype.toISOString`: UTC, milliseconds). */
export function isoInstant(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/**
 * TransactionAbandoned, whichever rule closed the session: the transaction's own values come from the
 * closed row `w` (see CLOSED_ROWS), the last energy register reading of the session too (optional: left
 * out when the session has none, see ABANDONED_OPTIONAL).
 */
const ABANDONED_COMPLETION = {
  transactionId: 'w.transaction_id',
  idTag: 'w.id_tag',
  meterStartWh: 'w.meter_start_wh',
  startedAt: isoInstant('w.started_at'),
  lastMeterWh: 'w.last_meter_wh',
  lastSampleAt: isoInstant('w.last_sample_at'),
} as const satisfies PayloadCompletion<
  TransactionAbandonedV1,
  'transactionId' | 'idTag' | 'meterStartWh' | 'startedAt' | 'lastMeterWh' | 'lastSampleAt'
>;
const ABANDONED_OPTIONAL = ['lastMeterWh', 'lastSampleAt'] as const;

/** What the gateway knows of a session it closes before the statement runs: where, by which rule, when. */
export function abandonedHead(
  chargePointId: string,
  connectorId: number,
  rule: AbandonRule,
  closedAt: string,
): Omit<TransactionAbandonedV1, keyof typeof ABANDONED_COMPLETION> {
  return { chargePointId, connectorId, rule, closedAt };
}

/**
 * The CTE `closed_rows` of a statement closing sessions, from its CTE `closed` (each row with the call
 * index `i` and the ocpp_transaction columns it RETURNED): what ABANDONED_COMPLETION reads. The last
 * reading is the session's latest unflagged energy register sample (by the pile's time, not before its
 * start): the one settlement prices a lost stop on.
 */
export const CLOSED_ROWS = `closed_rows AS (
    SELECT c.i, c.transaction_id, c.id_tag, c.meter_start_wh, c.started_at,
           last.value AS last_meter_wh, last.sampled_at AS last_sample_at
      FROM closed c
      LEFT JOIN LATERAL (
        SELECT s.value, s.sampled_at FROM ocpp_meter_sample s
         WHERE s.transaction_id = c.transaction_id AND s.measurand = '${ENERGY_REGISTER}' AND s.phase = ''
           AND s.unit = 'Wh' AND s.flag IS NULL AND s.value <> 'NaN' AND s.sampled_at >= c.started_at
         ORDER BY s.sampled_at DESC LIMIT 1) last ON true
  )`;

/**
 * The TransactionAbandoned events of a statement closing sessions (its `closed_rows`, see CLOSED_ROWS),
 * from the parameter `param` on (see writtenRowsOutboxInsert): one event per call, or with `perCall` one
 * per session a call closed (a new start or a status report may close several); `name` names the CTEs
 * when the statement announces something else too.
 */
export function abandonedEvents(param: number, options: { perCall?: 'many'; name?: string } = {}) {
  return writtenRowsOutboxInsert(TransactionAbandoned, {
    param,
    written: 'closed_rows',
    completion: ABANDONED_COMPLETION,
    optional: ABANDONED_OPTIONAL,
    ...(options.perCall ? { eachRow: 'w.transaction_id' } : {}),
    ...(options.name ? { name: options.name } : {}),
  });
}

/** The first (billed) stop of a transaction, as the stop writer reads it back. */
export type FirstStop = { meterStopWh: number; timestamp: string; reason: string };

/**
 * TransactionStopRepeated: a StopTransaction for a transaction stopped already, with the first stop it
 * repeats; it disagrees when its meterStop or its reason differ from the first's.
 */
export function stopRepeatedPayload(
  stop: ParsedStop,
  connectorId: number,
  first: FirstStop,
): TransactionStopRepeatedV1 {
  return {
    chargePointId: stop.chargePointId,
    connectorId,
    transactionId: stop.req.transactionId,
    meterStopWh: stop.req.meterStop,
    timestamp: stop.timestamp,
    reason: stop.reason,
    firstMeterStopWh: first.meterStopWh,
    firstTimestamp: first.timestamp,
    firstReason: first.reason,
    disagrees: stop.req.meterStop !== first.meterStopWh || stop.reason !== first.reason,
  };
}
