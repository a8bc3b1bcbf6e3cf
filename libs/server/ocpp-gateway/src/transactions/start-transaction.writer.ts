import type { EntityManager } from 'typeorm';
import { PreparedStatement } from '@voltdepot/server-database';
import { writtenRowsOutboxInsert } from '@voltdepot/server-messaging';
import { TransactionStarted } from '@voltdepot/shared-events';
import type { AuthorizationStatus, IdTagInfo, StartTransactionRequest } from '@voltdepot/shared-ocpp';
import { compare, instant, splitRepeats, withRepeats } from './batch-items';
import {
  abandonedEvents,
  abandonedHead,
  CLOSED_ROWS,
  STARTED_COMPLETION,
  startedHead,
} from './transaction-events';

/**
 * One StartTransaction call. `tagInfo` is the tag's decision from the read model (without the
 * concurrent-transaction check, which needs the transactions themselves and is made here).
 */
export type StartItem = {
  chargePointId: string;
  req: StartTransactionRequest;
  correlationId: string;
  tagInfo: IdTagInfo;
};

export type StartOutcome = {
  transactionId: number;
  idTagStatus: AuthorizationStatus;
  created: boolean;
  /** What to tell the pile: the tag's full decision for a new transaction, the stored status for a retry. */
  idTagInfo: IdTagInfo;
  /** Transactions of the connector this start closed (rule newStart: their pile never stopped them). */
  closed?: number[];
};

/**
 * Writes StartTransaction calls: records the starts (idempotent on pile, connector, tag, timestamp,
 * meterStart: a retry gets the first attempt's transactionId and status), each with its
 * TransactionStarted event. A start is always recorded, the pile has started already; an accepted tag
 * that already has an open transaction is told ConcurrentTx. A new start on a connector closes the
 * transactions still open there that started before it (rule newStart: a connector holds one session at
 * a time, so its pile will never stop those), each announced by TransactionAbandoned, and their tags are
 * free again: a tag whose only open transaction this start closes is not ConcurrentTx. Set-based, with
 * the same outcome per call as recording them one after another (one start per connector per statement:
 * a later start of the same connector in the batch is written after it).
 *
 * Two round trips: one read (earlier records of these starts, which of their tags have an open
 * transaction, and which connectors have one) and one statement that inserts the transactions and their
 * events together, and closes what the new starts close. That statement
 * is the only write, atomic by itself, so the start writer runs it without BEGIN and COMMIT around it
 * (each a round trip more, which under load waits for a busy event loop); inside a caller's transaction
 * it is part of that. The read needs no transaction either: under READ COMMITTED each statement sees a
 * fresh snapshot anyway, and starts of one tag are never written by two batches at once (see the start
 * group commit's sharding by tag).
 */
export class StartTransactionWriter {
  async write(manager: EntityManager, items: StartItem[]): Promise<StartOutcome[]> {
    // Each item's business key, once (parsing its timestamp is the costly part).
    const startedAt = items.map((item) => instant(item.req.timestamp));
    const keys = items.map((item, i) =>
      startKey(item.chargePointId, item.req.connectorId, item.req.idTag, startedAt[i], item.req.meterStart),
    );
    // One start per connector in a statement (retries of a start are on its connector too): the start
    // that closes a connector's transactions must see them, and a later one must see the earlier.
    const { primary, repeats } = splitRepeats(
      items,
      (item) => `${item.chargePointId}\u0000${item.req.connectorId}`,
    );
    const outcomes: StartOutcome[] = new Array(items.length);
    const {
      found: existing,
      busy,
      closing,
    } = await this.findStarts(
      manager,
      primary.map((i) => ({ item: items[i], startedAt: startedAt[i] })),
      true,
    );
    const fresh = primary.filter((_, n) => !existing[n]);
    primary.forEach((i, n) => {
      if (existing[n]) outcomes[i] = existing[n]!;
    });
    if (fresh.length) {
      // In call order: each recorded start opens a transaction for its tag.
      const startedHere = new Set<string>();
      const position = new Map(primary.map((i, n) => [i, n]));
      const decided = fresh.map((i) => {
        const item = items[i];
        const n = position.get(i)!;
        const info: IdTagInfo =
          item.tagInfo.status === 'Accepted' && (busy.has(n) || startedHere.has(item.req.idTag))
            ? { ...item.tagInfo, status: 'ConcurrentTx' }
            : item.tagInfo;
        startedHere.add(item.req.idTag);
        return { i, item, info, closes: closing.has(n) };
      });
      const closedAt = new Date().toISOString();
      const closers = decided.filter((d) => d.closes);
      // Inserted in key order, so that two batches holding the same retried start cannot deadlock.
      const ordered = [...decided].sort((a, b) => compare(keys[a.i], keys[b.i]));
      const inserted = await START_TRANSACTIONS.run(manager, [
        ordered.map((d) => d.i),
        ordered.map((d) => d.item.chargePointId),
        ordered.map((d) => d.item.req.connectorId),
        ordered.map((d) => d.item.req.idTag),
        ordered.map((d) => d.info.status),
        ordered.map((d) => d.item.req.meterStart),
        ordered.map((d) => startedAt[d.i]),
        ordered.map((d) => d.item.req.reservationId ?? null),
        // Each call's event, in call order; the statement adds the transaction id it assigned.
        ...STARTED_EVENTS.values(
          decided.map(({ i, item, info }) => ({
            i,
            key: item.chargePointId,
            correlationId: item.correlationId,
            occurredAt: startedAt[i],
            payload: startedHead(item.chargePointId, item.req, info.status, startedAt[i]),
          })),
        ),
        closers.map((d) => d.i),
        closedAt,
        ...ABANDONED_EVENTS.values(
          closers.map(({ i, item }) => ({
            i,
            key: item.chargePointId,
            correlationId: item.correlationId,
            occurredAt: closedAt,
            payload: abandonedHead(item.chargePointId, item.req.connectorId, 'newStart', closedAt),
          })),
        ),
      ]);
      const created = new Map<number, number>();
      const closed = new Map<number, number[]>();
      for (const row of inserted)
        if (row.closed) closed.set(row.i, [...(closed.get(row.i) ?? []), row.transaction_id]);
        else created.set(row.i, row.transaction_id);
      const raced: typeof decided = [];
      for (const d of decided) {
        const { i, info } = d;
        const transactionId = created.get(i);
        if (transactionId === undefined) {
          // Another batch recorded the same start a moment ago, or an earlier call of this one stored alike.
          raced.push(d);
          continue;
        }
        outcomes[i] = {
          transactionId,
          idTagStatus: info.status,
          created: true,
          idTagInfo: info,
          ...(closed.has(i) ? { closed: closed.get(i) } : {}),
        };
      }
      if (raced.length) {
        const { found } = await this.findStarts(
          manager,
          raced.map((r) => ({ item: r.item, startedAt: startedAt[r.i] })),
          false,
        );
        raced.forEach((r, n) => {
          if (!found[n]) throw new Error('start transaction conflict without a row');
          outcomes[r.i] = found[n]!;
        });
      }
    }
    // The same start more than once in the batch: the later ones are retries of the first.
    return withRepeats(items, repeats, outcomes, (repeated) => this.write(manager, repeated));
  }

  /**
   * The transactions already recorded for these starts (by business key, with the start instant the
   * batch parsed once), in order; with `open`, also which of the starts with an accepted tag find that
   * tag busy (an open transaction the start does not close), and which find an earlier transaction open
   * on their connector (they close it): one round trip, one snapshot. Indexes are positions in `starts`.
   */
  private async findStarts(
    manager: EntityManager,
    starts: { item: StartItem; startedAt: string }[],
    open: boolean,
  ): Promise<{ found: (StartOutcome | undefined)[]; busy: Set<number>; closing: Set<number> }> {
    const rows = await FIND_STARTS.run(manager, [
      starts.map((_, i) => i),
      starts.map(({ item }) => item.chargePointId),
      starts.map(({ item }) => item.req.connectorId),
      starts.map(({ item }) => item.req.idTag),
      starts.map(({ startedAt }) => startedAt),
      starts.map(({ item }) => item.req.meterStart),
      open ? starts.flatMap(({ item }, i) => (item.tagInfo.status === 'Accepted' ? [i] : [])) : [],
      open,
    ]);
    const found: (StartOutcome | undefined)[] = starts.map(() => undefined);
    const busy = new Set<number>();
    const closing = new Set<number>();
    for (const row of rows) {
      if (row.kind === 'busy') busy.add(row.i);
      else if (row.kind === 'closes') closing.add(row.i);
      else
        found[row.i] = {
          transactionId: row.transaction_id!,
          idTagStatus: row.id_tag_status!,
          created: false,
          idTagInfo: { status: row.id_tag_status! },
        };
    }
    return { found, busy, closing };
  }
}

/** A start's business key; `startedAt` as `instant` makes it. */
function startKey(
  chargePointId: string,
  connectorId: number,
  idTag: string,
  startedAt: string,
  meterStart: number,
): string {
  return `${chargePointId}\u0000${connectorId}\u0000${idTag}\u0000${startedAt}\u0000${meterStart}`;
}

/**
 * Earlier records of these starts ($1-$6: index, pile, connector, tag, time, meter start; one row `found`
 * per start found); which of the starts $7 (indexes: those with an accepted tag) find their tag with an
 * open transaction other than one they close (a row `busy` each); and, when $8, which starts find an
 * earlier open transaction on their connector (a row `closes` each).
 * The busy check is an EXISTS per start: an index scan of the open-tag index that stops at the first
 * open transaction it counts, rather than a bitmap scan of every entry of those tags. A stop leaves its dead
 * entry in that partial index until vacuum, and under a stream of starts and stops the bitmap scan visited
 * them all on every batch (6.9 ms per read at the end of a 60,000-call burst); an index scan marks the
 * dead entries it meets so later scans skip them. The connector check is a probe of the open-connector
 * partial index.
 */
const FIND_STARTS = new PreparedStatement<{
  i: number;
  kind: 'found' | 'busy' | 'closes';
  transaction_id: number | null;
  id_tag_status: AuthorizationStatus | null;
}>(
  'ocpp.find-starts',
  `
  WITH u AS (
    SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::timestamptz[], $6::bigint[])
      AS u(i, cp, connector, tag, ts, meter)
  )
  SELECT u.i, 'found' AS kind, t.transaction_id, t.id_tag_status
    FROM u
    JOIN ocpp_transaction t ON t.charge_point_id = u.cp AND t.connector_id = u.connector AND t.id_tag = u.tag
                           AND t.started_at = u.ts AND t.meter_start_wh = u.meter
  UNION ALL
  SELECT u.i, 'busy', NULL::int, NULL::text
    FROM u
   WHERE u.i = ANY($7::int[])
     AND EXISTS (SELECT 1 FROM ocpp_transaction o
                  WHERE o.id_tag = u.tag AND o.stopped_at IS NULL
                    AND NOT (o.charge_point_id = u.cp AND o.connector_id = u.connector AND o.started_at < u.ts))
  UNION ALL
  SELECT u.i, 'closes', NULL::int, NULL::text
    FROM u
   WHERE $8::boolean
     AND EXISTS (SELECT 1 FROM ocpp_transaction o
                  WHERE o.charge_point_id = u.cp AND o.connector_id = u.connector AND o.stopped_at IS NULL
                    AND o.started_at < u.ts)`,
);

/** TransactionStarted of each created transaction ($9-$12, see writtenRowsOutboxInsert). */
const STARTED_EVENTS = writtenRowsOutboxInsert(TransactionStarted, {
  param: 9,
  written: 'created',
  completion: STARTED_COMPLETION,
});

/**
 * TransactionAbandoned of each transaction a new start closes ($15-$18; one event per closed row, the
 * start's call index `i`).
 */
const ABANDONED_EVENTS = abandonedEvents(15, { perCall: 'many', name: 'abandoned' });

/**
 * Insert the starts (a start already recorded, same business key, is skipped), match each inserted row to
 * its call on the values as stored (a key rebuilt in JavaScript from the returned row would miss a call
 * whose text PostgreSQL changed on the way in, and its start would go unannounced; two calls that
 * PostgreSQL stores alike get one row, the first is its creator), and add each created transaction's
 * TransactionStarted event with the id just assigned, in call order. The created starts among $13 (call
 * indexes) close the transactions open on their connector that started before them, at $14 (rule
 * newStart), each with its TransactionAbandoned event. $1-$8 the starts (in key order), $9-$12 the events
 * (STARTED_EVENTS), $15-$18 the closing events (ABANDONED_EVENTS). Returns each created transaction
 * (`closed` false) and each closed one (`closed` true) with the call index.
 */
const START_TRANSACTIONS = new PreparedStatement<{ i: number; transaction_id: number; closed: boolean }>(
  'ocpp.start-transactions',
  `
  WITH input AS (
    SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::text[], $6::bigint[],
                         $7::timestamptz[], $8::int[]) WITH ORDINALITY
      AS u(i, charge_point_id, connector_id, id_tag, id_tag_status, meter_start_wh, started_at, reservation_id, n)
  ), inserted AS (
    INSERT INTO ocpp_transaction (charge_point_id, connector_id, id_tag, id_tag_status, meter_start_wh, started_at, reservation_id)
    SELECT charge_point_id, connector_id, id_tag, id_tag_status, meter_start_wh, started_at, reservation_id
      FROM input ORDER BY n
    ON CONFLICT ON CONSTRAINT ocpp_transaction_start_key DO NOTHING
    RETURNING transaction_id, charge_point_id, connector_id, id_tag, started_at, meter_start_wh
  ), created AS (
    SELECT DISTINCT ON (inserted.transaction_id) input.i, inserted.transaction_id
      FROM inserted JOIN input USING (charge_point_id, connector_id, id_tag, started_at, meter_start_wh)
     ORDER BY inserted.transaction_id, input.n
  ), ${STARTED_EVENTS.ctes},
  closed AS (
    UPDATE ocpp_transaction t
       SET stopped_at = $14::timestamptz, abandoned_at = $14::timestamptz, abandon_rule = 'newStart'
      FROM created c JOIN input s USING (i)
     WHERE c.i = ANY($13::int[]) AND t.charge_point_id = s.charge_point_id AND t.connector_id = s.connector_id
       AND t.stopped_at IS NULL AND t.started_at < s.started_at
    RETURNING c.i, t.transaction_id, t.id_tag, t.meter_start_wh, t.started_at
  ), ${CLOSED_ROWS}, ${ABANDONED_EVENTS.ctes}
  SELECT i, transaction_id, false AS closed FROM created
  UNION ALL
  SELECT i, transaction_id, true FROM closed`,
);
