import type { EntityManager } from 'typeorm';
import { PreparedStatement } from '@voltdepot/server-database';
import { writtenRowsOutboxInsert } from '@voltdepot/server-messaging';
import { TransactionStopped, TransactionStopRepeated } from '@voltdepot/shared-events';
import { stopKindOf, type StopTransactionRequest } from '@voltdepot/shared-ocpp';
import { isInt32 } from '../persistence/storable-values';
import { instant, splitRepeats, withRepeats } from './batch-items';
import { normalizeMeterValues } from './meter-sample';
import { writeSampleGroups, type SampleCheckOptions, type SampleGroup } from './sample-groups';
import {
  quarantinedStopPayload,
  STOPPED_COMPLETION,
  STOPPED_OPTIONAL,
  stoppedHead,
  stopRepeatedPayload,
  type FirstStop,
  type ParsedStop,
} from './transaction-events';
import { meterAsNumber, type TxRow } from './transaction-row';

/** One StopTransaction call. */
export type StopItem = { chargePointId: string; req: StopTransactionRequest; correlationId: string };
export type StopOutcome = {
  /**
   * `stopped`: this call stopped the transaction; `already-stopped`: a retry of the stop that did, or of
   * a repeat recorded already; `repeated`: another stop of a transaction stopped already, recorded now;
   * `quarantined` / `quarantined-again`: a stop of a transaction we never gave (first time, or again).
   */
  outcome: 'stopped' | 'already-stopped' | 'repeated' | 'quarantined' | 'quarantined-again';
  /** `stopped`: a rule had closed the session before (its real stop came late, a replayed queue). */
  afterAbandon?: true;
  /** `repeated`: the repeat has another meterStop or another reason than the first stop. */
  disagrees?: boolean;
};

/**
 * Writes StopTransaction calls. An unknown transaction (or one of another pile) is quarantined and
 * announced as such rather than refused: the pile has already ended it and would otherwise retry forever.
 * The first stop of a transaction stops it, also when a rule had closed the session already (its real
 * stop, late: announced with afterAbandon). A later stop with the same time, meterStop and reason is a
 * retry of the first and has no effect; one that differs is a repeat: recorded once in ocpp_stop_repeat
 * and announced (TransactionStopRepeated), the first stop standing. Set-based, with the same outcome per
 * call as recording them one after another.
 *
 * Each write is one statement together with the events announcing it: stopping the transactions (and
 * their TransactionStopped events, the stored start values merged in by PostgreSQL), and quarantining
 * the unknown ones (and theirs). A batch of stops of known transactions is so one round trip, which the
 * stop group commit runs without BEGIN and COMMIT. Stops that carry transactionData write their samples
 * (and events) first, which makes two writes that must commit together: such a batch runs in a
 * transaction (its own unless the caller's), and locks the transactions it stops first, so that only the
 * call that stops a transaction records its samples, as before.
 */
export class StopTransactionWriter {
  constructor(private readonly options: SampleCheckOptions = {}) {}

  async write(manager: EntityManager, items: StopItem[]): Promise<StopOutcome[]> {
    const { primary, repeats } = splitRepeats(
      items,
      (item) => `${item.chargePointId}\u0000${item.req.transactionId}`,
    );
    const list: (ParsedStop & { i: number; correlationId: string })[] = primary.map((i) => ({
      i,
      ...items[i],
      timestamp: instant(items[i].req.timestamp),
      ...stopKindOf(items[i].req.reason),
    }));
    const withData = list.filter((s) => s.req.transactionData?.length);
    if (withData.length && !manager.queryRunner?.isTransactionActive)
      return manager.transaction((inTransaction) => this.write(inTransaction, items));
    const outcomes: StopOutcome[] = new Array(items.length);

    if (withData.length) {
      // The transactions these stops will stop, locked so that a copy of the same stop in another
      // batch waits for this one and then finds its transaction stopped (and writes no samples).
      const open = meterAsNumber<TxRow & { i: number }>(
        await manager.query(
          `SELECT u.i, t.transaction_id, t.connector_id, t.id_tag, t.id_tag_status, t.meter_start_wh, t.started_at
             FROM unnest($1::int[], $2::bigint[], $3::text[]) AS u(i, tx, cp)
             JOIN ocpp_transaction t ON t.transaction_id = u.tx AND t.charge_point_id = u.cp AND t.meter_stop_wh IS NULL
            ORDER BY t.transaction_id
              FOR UPDATE OF t`,
          [
            withData.map((s) => s.i),
            withData.map((s) => s.req.transactionId),
            withData.map((s) => s.chargePointId),
          ],
        ),
      );
      const txOf = new Map(open.map(({ i, ...row }) => [i, row]));
      // A stop's transactionData samples go before its TransactionStopped event, as in the call.
      const groups: SampleGroup[] = withData.flatMap((s) => {
        const tx = txOf.get(s.i);
        return tx
          ? [
              {
                chargePointId: s.chargePointId,
                connectorId: tx.connector_id,
                claimedTransactionId: s.req.transactionId,
                tx,
                samples: normalizeMeterValues(s.req.transactionData!),
                correlationId: s.correlationId,
              },
            ]
          : [];
      });
      if (groups.length) await writeSampleGroups(manager, groups, this.options);
    }

    const stoppedRows = await STOP_TRANSACTIONS.run(manager, [
      list.map((s) => s.i),
      list.map((s) => s.req.transactionId),
      list.map((s) => s.chargePointId),
      list.map((s) => s.req.meterStop),
      list.map((s) => s.timestamp),
      list.map((s) => s.req.idTag ?? null),
      list.map((s) => s.reason),
      list.map((s) => s.stopKind),
      ...STOPPED_EVENTS.values(
        list.map((s) => ({
          i: s.i,
          key: s.chargePointId,
          correlationId: s.correlationId,
          occurredAt: s.timestamp,
          payload: stoppedHead(s),
        })),
      ),
    ]);
    for (const { i, after_abandon } of stoppedRows)
      outcomes[i] = after_abandon ? { outcome: 'stopped', afterAbandon: true } : { outcome: 'stopped' };

    const rest = list.filter((s) => !outcomes[s.i]);
    // The transactions the other calls name, if ours, with the stop that stopped them.
    const known = new Map<number, { connectorId: number; first: FirstStop | undefined }>();
    if (rest.length) {
      const rows: {
        i: number;
        connector_id: number;
        meter_stop_wh: string | null;
        stopped_at: Date | null;
        stop_reason: string | null;
      }[] = await manager.query(
        `SELECT u.i, t.connector_id, t.meter_stop_wh, t.stopped_at, t.stop_reason
           FROM unnest($1::int[], $2::bigint[], $3::text[]) AS u(i, tx, cp)
           JOIN ocpp_transaction t ON t.transaction_id = u.tx AND t.charge_point_id = u.cp`,
        [rest.map((s) => s.i), rest.map((s) => s.req.transactionId), rest.map((s) => s.chargePointId)],
      );
      for (const row of rows)
        known.set(row.i, {
          connectorId: row.connector_id,
          first:
            row.meter_stop_wh !== null && row.stopped_at !== null
              ? {
                  meterStopWh: Number(row.meter_stop_wh),
                  timestamp: row.stopped_at.toISOString(),
                  reason: row.stop_reason ?? 'Local',
                }
              : undefined,
        });
    }
    // A stop that differs from the first is a repeat, a stop like it a retry of it.
    const repeated = rest.flatMap((s) => {
      const tx = known.get(s.i);
      if (!tx?.first) return [];
      const payload = stopRepeatedPayload(s, tx.connectorId, tx.first);
      const retry = !payload.disagrees && payload.timestamp === payload.firstTimestamp;
      return retry ? [] : [{ stop: s, payload }];
    });
    const recorded = new Set<number>();
    if (repeated.length) {
      const rows = await REPEAT_STOPS.run(manager, [
        repeated.map((r) => r.stop.i),
        repeated.map((r) => r.stop.chargePointId),
        repeated.map((r) => r.stop.req.transactionId),
        repeated.map((r) => r.stop.req.meterStop),
        repeated.map((r) => r.stop.timestamp),
        repeated.map((r) => r.stop.reason),
        repeated.map((r) => r.stop.req.idTag ?? null),
        repeated.map((r) => r.payload.disagrees),
        repeated.map((r) => r.stop.correlationId),
        repeated.map((r) => JSON.stringify(r.stop.req)),
        ...REPEATED_EVENTS.values(
          repeated.map(({ stop, payload }) => ({
            i: stop.i,
            key: stop.chargePointId,
            correlationId: stop.correlationId,
            occurredAt: stop.timestamp,
            payload,
          })),
        ),
      ]);
      for (const row of rows) recorded.add(row.i);
      for (const { stop, payload } of repeated)
        if (recorded.has(stop.i)) outcomes[stop.i] = { outcome: 'repeated', disagrees: payload.disagrees };
    }
    const unknown = rest.filter((s) => !known.has(s.i));
    const quarantined = new Set<number>();
    if (unknown.length) {
      const rows = await QUARANTINE_STOPS.run(manager, [
        unknown.map((s) => s.i),
        unknown.map((s) => s.chargePointId),
        unknown.map((s) => s.req.transactionId),
        unknown.map((s) => s.req.idTag ?? null),
        unknown.map((s) => s.req.meterStop),
        unknown.map((s) => s.timestamp),
        unknown.map((s) => s.reason),
        unknown.map((s) => JSON.stringify(s.req)),
        ...QUARANTINED_EVENTS.values(
          unknown
            // An id beyond 32 bits is kept in the quarantine for reconciliation, but not announced: no
            // transaction of ours has such an id, and the areas downstream key transactions by our 32-bit ids.
            .filter((s) => isInt32(s.req.transactionId))
            .map((s) => ({
              i: s.i,
              key: s.chargePointId,
              correlationId: s.correlationId,
              occurredAt: s.timestamp,
              payload: quarantinedStopPayload(s),
            })),
        ),
      ]);
      for (const row of rows) quarantined.add(row.i);
    }
    for (const s of rest)
      outcomes[s.i] ??= known.has(s.i)
        ? { outcome: 'already-stopped' }
        : quarantined.has(s.i)
          ? { outcome: 'quarantined' }
          : { outcome: 'quarantined-again' };
    // The same stop more than once in the batch: the later ones are retries of the first.
    return withRepeats(items, repeats, outcomes, (repeated) => this.write(manager, repeated));
  }
}

/** TransactionStopped of each transaction stopped ($9-$12, see writtenRowsOutboxInsert). */
const STOPPED_EVENTS = writtenRowsOutboxInsert(TransactionStopped, {
  param: 9,
  written: 'stopped',
  completion: STOPPED_COMPLETION,
  optional: STOPPED_OPTIONAL,
});

/**
 * Stop the transactions (those of the same pile no StopTransaction has stopped yet: open, or closed by a
 * rule) and add a TransactionStopped event for each one stopped, in call order, its payload completed from
 * the row (STOPPED_COMPLETION). $1-$8 the stops, $9-$12 the events (STOPPED_EVENTS). Returns the call
 * indexes stopped, and whether a rule had closed the session before.
 */
const STOP_TRANSACTIONS = new PreparedStatement<{ i: number; after_abandon: boolean }>(
  'ocpp.stop-transactions',
  `
  WITH u AS (
    SELECT * FROM unnest($1::int[], $2::bigint[], $3::text[], $4::bigint[], $5::timestamptz[], $6::text[],
                         $7::text[], $8::text[])
      AS u(i, tx, cp, meter_stop, ts, tag, reason, kind)
  ), stopped AS (
    UPDATE ocpp_transaction t
       SET meter_stop_wh = u.meter_stop, stopped_at = u.ts, stop_id_tag = u.tag, stop_reason = u.reason, stop_kind = u.kind
      FROM u
     WHERE t.transaction_id = u.tx AND t.charge_point_id = u.cp AND t.meter_stop_wh IS NULL
    RETURNING u.i, u.tag, u.meter_stop, t.transaction_id, t.connector_id, t.id_tag, t.meter_start_wh, t.abandoned_at
  ), ${STOPPED_EVENTS.ctes}
  SELECT i, abandoned_at IS NOT NULL AS after_abandon FROM stopped`,
);

/** TransactionStopRepeated of each repeat recorded now ($11-$14, see writtenRowsOutboxInsert). */
const REPEATED_EVENTS = writtenRowsOutboxInsert(TransactionStopRepeated, { param: 11, written: 'created' });

/**
 * Record repeated stops (a repeat recorded already, same transaction, time, meterStop and reason, is
 * skipped) and announce each one recorded now, in call order; two calls that PostgreSQL stores alike get
 * one row, the first is its creator. $1-$10 the repeats, $11-$14 the events (REPEATED_EVENTS). Returns
 * the call indexes recorded.
 */
const REPEAT_STOPS = new PreparedStatement<{ i: number }>(
  'ocpp.repeat-stops',
  `
  WITH input AS (
    SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::bigint[], $5::timestamptz[], $6::text[],
                         $7::text[], $8::boolean[], $9::text[], $10::jsonb[]) WITH ORDINALITY
      AS u(i, charge_point_id, transaction_id, meter_stop_wh, stopped_at, reason, id_tag, disagrees,
           correlation_id, payload, n)
  ), inserted AS (
    INSERT INTO ocpp_stop_repeat (charge_point_id, transaction_id, meter_stop_wh, stopped_at, reason, id_tag,
                                  disagrees, correlation_id, payload)
    SELECT charge_point_id, transaction_id, meter_stop_wh, stopped_at, reason, id_tag, disagrees,
           correlation_id, payload
      FROM input ORDER BY n
    ON CONFLICT ON CONSTRAINT ocpp_stop_repeat_key DO NOTHING
    RETURNING transaction_id, stopped_at, meter_stop_wh, reason
  ), created AS (
    SELECT DISTINCT ON (transaction_id, stopped_at, meter_stop_wh, reason) input.i
      FROM inserted JOIN input USING (transaction_id, stopped_at, meter_stop_wh, reason)
     ORDER BY transaction_id, stopped_at, meter_stop_wh, reason, input.n
  ), ${REPEATED_EVENTS.ctes}
  SELECT i FROM created`,
);

/** TransactionStopped of each stop newly quarantined ($9-$12, see writtenRowsOutboxInsert). */
const QUARANTINED_EVENTS = writtenRowsOutboxInsert(TransactionStopped, { param: 9, written: 'created' });

/**
 * Quarantine stops of unknown transactions (a stop quarantined already, same pile, transaction and
 * time, is skipped) and announce each one newly quarantined, in call order. Each row inserted is matched
 * to its call on the values as stored; two calls that PostgreSQL stores alike get one row, the first is
 * its creator. $1-$8 the stops, $9-$12 the events (QUARANTINED_EVENTS; none for ids beyond 32 bits).
 * Returns the call indexes newly quarantined.
 */
const QUARANTINE_STOPS = new PreparedStatement<{ i: number }>(
  'ocpp.quarantine-stops',
  `
  WITH input AS (
    SELECT * FROM unnest($1::int[], $2::text[], $3::bigint[], $4::text[], $5::bigint[], $6::timestamptz[],
                         $7::text[], $8::jsonb[]) WITH ORDINALITY
      AS u(i, charge_point_id, transaction_id, id_tag, meter_stop_wh, stopped_at, reason, payload, n)
  ), inserted AS (
    INSERT INTO ocpp_stop_quarantine (charge_point_id, transaction_id, id_tag, meter_stop_wh, stopped_at, reason, payload)
    SELECT charge_point_id, transaction_id, id_tag, meter_stop_wh, stopped_at, reason, payload FROM input ORDER BY n
    ON CONFLICT ON CONSTRAINT ocpp_stop_quarantine_key DO NOTHING
    RETURNING charge_point_id, transaction_id, stopped_at
  ), created AS (
    SELECT DISTINCT ON (charge_point_id, transaction_id, stopped_at) input.i
      FROM inserted JOIN input USING (charge_point_id, transaction_id, stopped_at)
     ORDER BY charge_point_id, transaction_id, stopped_at, input.n
  ), ${QUARANTINED_EVENTS.ctes}
  SELECT i FROM created`,
);
