import {
  ConnectorStatusChanged,
  MeterValuesReceived,
  PileBooted,
  PileConnected,
  PileDisconnected,
  TransactionStarted,
  TransactionStopped,
  type EventEnvelope,
} from '@voltdepot/shared-events';
import type { ReadModelKeys } from './read-model.keys';

/**
 * One change to the read model, applied atomically with the others of its event (read-model.store.ts).
 * Every operation is order-tolerant: what an event says is kept only if it is not older than what is
 * there, so a late or repeated event never undoes a newer one.
 */
export type ReadModelOp =
  /** Add an entry to a time-ordered history (ties broken by arrival); keep the newest `keep`. */
  | { op: 'hist'; key: string; at: string; data: string; keep: number }
  /** Per field: set the value if its order key is >= the stored one (last writer wins by time). */
  | { op: 'lww'; key: string; fields: Record<string, [orderKey: string, value: string]> }
  /** Facts that never change once known (a transaction's start, its stop). */
  | { op: 'hset'; key: string; fields: Record<string, string> }
  /** Add a member with a score, or lower its score: a transaction ranks by its earliest known time. */
  | { op: 'zmin'; key: string; score: number; member: string; keep: number }
  | { op: 'sadd'; key: string; member: string }
  /** Raise a hash field to `value` if greater (ISO instants compare as strings). */
  | { op: 'max'; key: string; field: string; value: string }
  | { op: 'expire'; key: string; seconds: number };

export type ProjectionPlan = {
  chargePointId: string;
  /** Status and connection events: apply at most once (their history entries are not idempotent). */
  markerKey?: string;
  ops: ReadModelOp[];
};

/** How many status and connection events are kept per gun and pile (enough to find "since"). */
export const HISTORY_KEEP = 32;
const TRANSACTIONS_PER_GUN = 8;
const TRANSACTIONS_PER_CARD = 5;
const DAY_S = 86_400;
/** A transaction's figures are kept a month after its last event; a card's history three months. */
const TRANSACTION_TTL_S = 30 * DAY_S;
const ID_TAG_TTL_S = 90 * DAY_S;

export const ENERGY_REGISTER = 'Energy.Active.Import.Register';
export const POWER_IMPORT = 'Power.Active.Import';
export const STATE_OF_CHARGE = 'SoC';

/** A normalised ISO instant (sortable as text), or undefined for a value that is not one. */
export function isoInstant(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** Hours and minutes in the future are a pile's wrong clock, not news: last seen never passes `now`. */
function seenAt(at: string, now: Date): string {
  const nowIso = now.toISOString();
  return at > nowIso ? nowIso : at;
}

/**
 * What a gateway event changes in the read model (business-areas §4 gun and pile states). Events the
 * model does not use (pile.error duplicates connector.status-changed, other versions) give null.
 */
export function planFor(
  envelope: EventEnvelope,
  keys: ReadModelKeys,
  now: Date = new Date(),
): ProjectionPlan | null {
  const occurredAt = isoInstant(envelope.occurredAt) ?? now.toISOString();
  const lastSeen = (cp: string): ReadModelOp => ({
    op: 'max',
    key: keys.pile(cp),
    field: 'lastSeenAt',
    value: seenAt(occurredAt, now),
  });

  if (PileConnected.is(envelope) || PileDisconnected.is(envelope)) {
    const { chargePointId, replicaId } = envelope.payload;
    // The gateway's correlation id of these events names the pile's connection (`{cp}:{sessionId}`).
    const data = JSON.stringify({
      k: PileConnected.is(envelope) ? 'c' : 'd',
      s: envelope.correlationId,
      r: replicaId,
    });
    return {
      chargePointId,
      markerKey: keys.eventMarker(envelope.eventId),
      ops: [
        { op: 'hist', key: keys.pileConnections(chargePointId), at: occurredAt, data, keep: HISTORY_KEEP },
        lastSeen(chargePointId),
      ],
    };
  }

  if (PileBooted.is(envelope)) {
    const p = envelope.payload;
    const fields: Record<string, [string, string]> = {
      vendor: [occurredAt, p.vendor],
      model: [occurredAt, p.model],
      registrationStatus: [occurredAt, p.registrationStatus],
      bootedAt: [occurredAt, occurredAt],
      firmwareVersion: [occurredAt, p.firmwareVersion ?? ''],
    };
    return {
      chargePointId: p.chargePointId,
      ops: [{ op: 'lww', key: keys.pile(p.chargePointId), fields }, lastSeen(p.chargePointId)],
    };
  }

  if (ConnectorStatusChanged.is(envelope)) {
    const p = envelope.payload;
    const at = isoInstant(p.timestamp) ?? occurredAt;
    const data = JSON.stringify({ s: p.status, e: p.errorCode, i: p.info ?? null });
    const ops: ReadModelOp[] = [
      { op: 'hist', key: keys.gunStatuses(p.chargePointId, p.connectorId), at, data, keep: HISTORY_KEEP },
      lastSeen(p.chargePointId),
    ];
    if (p.connectorId > 0)
      ops.push({ op: 'sadd', key: keys.pileConnectors(p.chargePointId), member: String(p.connectorId) });
    return { chargePointId: p.chargePointId, markerKey: keys.eventMarker(envelope.eventId), ops };
  }

  if (TransactionStarted.is(envelope)) {
    const p = envelope.payload;
    const startedAt = isoInstant(p.timestamp) ?? occurredAt;
    const tx = keys.transaction(p.chargePointId, p.transactionId);
    const idTag = keys.idTag(p.idTag);
    return {
      chargePointId: p.chargePointId,
      ops: [
        {
          op: 'hset',
          key: tx,
          fields: {
            connectorId: String(p.connectorId),
            idTag: p.idTag,
            idTagStatus: p.idTagStatus,
            meterStartWh: String(p.meterStartWh),
            startedAt,
          },
        },
        { op: 'expire', key: tx, seconds: TRANSACTION_TTL_S },
        ...gunTransaction(keys, p.chargePointId, p.connectorId, p.transactionId, startedAt),
        {
          op: 'zmin',
          key: idTag,
          score: Date.parse(startedAt),
          member: `${p.chargePointId}|${p.transactionId}`,
          keep: TRANSACTIONS_PER_CARD,
        },
        { op: 'expire', key: idTag, seconds: ID_TAG_TTL_S },
        lastSeen(p.chargePointId),
      ],
    };
  }

  if (MeterValuesReceived.is(envelope)) {
    const p = envelope.payload;
    if (p.transactionId === undefined)
      return { chargePointId: p.chargePointId, ops: [lastSeen(p.chargePointId)] };
    const fields: Record<string, [string, string]> = {};
    let earliest: string | undefined;
    for (const sample of p.samples) {
      const at = isoInstant(sample.timestamp);
      // Flagged values (negative, decreasing, unparseable) stay out of the live figures.
      if (!at || sample.flag || !Number.isFinite(sample.value)) continue;
      if (!earliest || at < earliest) earliest = at;
      const field = measuredField(sample.measurand, sample.phase, sample.unit);
      if (!field) continue;
      const current = fields[field];
      if (!current || at >= current[0]) fields[field] = [at, String(roundFor(field, sample.value))];
    }
    const tx = keys.transaction(p.chargePointId, p.transactionId);
    const ops: ReadModelOp[] = [
      { op: 'hset', key: tx, fields: { connectorId: String(p.connectorId) } },
      { op: 'expire', key: tx, seconds: TRANSACTION_TTL_S },
      lastSeen(p.chargePointId),
    ];
    if (Object.keys(fields).length) ops.unshift({ op: 'lww', key: tx, fields });
    if (earliest)
      ops.push(...gunTransaction(keys, p.chargePointId, p.connectorId, p.transactionId, earliest));
    return { chargePointId: p.chargePointId, ops };
  }

  if (TransactionStopped.is(envelope)) {
    const p = envelope.payload;
    const stoppedAt = isoInstant(p.timestamp) ?? occurredAt;
    const tx = keys.transaction(p.chargePointId, p.transactionId);
    const fields: Record<string, string> = {
      stoppedAt,
      stopReason: p.reason,
      stopKind: p.stopKind,
      meterStopWh: String(p.meterStopWh),
    };
    if (p.energyWh !== undefined) fields['energyWh'] = String(p.energyWh);
    if (p.meterStartWh !== undefined) fields['meterStartWh'] = String(p.meterStartWh);
    if (p.idTag) fields['idTag'] = p.idTag;
    const ops: ReadModelOp[] = [
      { op: 'hset', key: tx, fields },
      { op: 'expire', key: tx, seconds: TRANSACTION_TTL_S },
      lastSeen(p.chargePointId),
    ];
    // A quarantined stop (its start never seen) names no connector: it belongs to no gun.
    if (!p.quarantined && p.connectorId > 0) {
      fields['connectorId'] = String(p.connectorId);
      ops.push(...gunTransaction(keys, p.chargePointId, p.connectorId, p.transactionId, stoppedAt));
      if (p.idTag) {
        ops.push(
          {
            op: 'zmin',
            key: keys.idTag(p.idTag),
            score: Date.parse(stoppedAt),
            member: `${p.chargePointId}|${p.transactionId}`,
            keep: TRANSACTIONS_PER_CARD,
          },
          { op: 'expire', key: keys.idTag(p.idTag), seconds: ID_TAG_TTL_S },
        );
      }
    }
    return { chargePointId: p.chargePointId, ops };
  }

  return null;
}

function gunTransaction(
  keys: ReadModelKeys,
  chargePointId: string,
  connectorId: number,
  transactionId: number,
  at: string,
): ReadModelOp[] {
  return [
    {
      op: 'zmin',
      key: keys.gunTransactions(chargePointId, connectorId),
      score: Date.parse(at),
      member: String(transactionId),
      keep: TRANSACTIONS_PER_GUN,
    },
    { op: 'sadd', key: keys.pileConnectors(chargePointId), member: String(connectorId) },
  ];
}

/** The transaction field a sample feeds: the whole-meter energy register, import power, the EV's SoC. */
function measuredField(
  measurand: string,
  phase: string | undefined,
  unit: string | undefined,
): string | undefined {
  switch (measurand) {
    case ENERGY_REGISTER:
      return !phase && (unit === undefined || unit === 'Wh') ? 'registerWh' : undefined;
    case POWER_IMPORT:
      return !phase && (unit === undefined || unit === 'W') ? 'powerW' : undefined;
    case STATE_OF_CHARGE:
      return 'soc';
    default:
      return undefined;
  }
}

function roundFor(field: string, value: number): number {
  // Energy and power are integers (Wh, W); SoC keeps one decimal.
  return field === 'soc' ? Math.round(value * 10) / 10 : Math.round(value);
}
