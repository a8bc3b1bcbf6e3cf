import type { EntityManager } from 'typeorm';
import { PreparedStatement } from '@voltdepot/server-database';
import { writtenRowsOutboxInsert } from '@voltdepot/server-messaging';
import { TransactionStarted } from '@voltdepot/shared-events';
import type { AuthorizationStatus, IdTagInfo, StartTransactionRequest } from '@voltdepot/shared-ocpp';
import { compare, instant, splitRepeats, withRepeats } from './batch-items';
import { STARTED_COMPLETION, startedHead } from './transaction-events';

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
};

/**
 * Writes StartTransaction calls: records the starts (idempotent on pile, connector, tag, timestamp,
 * meterStart: a retry gets the first attempt's transactionId and status), each with its
 * TransactionStarted event. A start is always recorded, the pile has started already; an accepted tag
 * that already has an open transaction is told ConcurrentTx. Set-based, with the same outcome per call
 * as recording them one after another.
 *
 * Two round trips: one read (earlier records of these starts, and which of their tags have an open
 * transaction) and one statement that inserts the transactions and their events together. That statement
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
    const { primary, repeats } = splitRepeats(items, (_item, i) => keys[i]);
    const outcomes: StartOutcome[] = new Array(items.length);
    const list = primary.map((i) => items[i]);
    const { found: existing, openTags: open } = await this.findStarts(
      manager,
      primary.map((i) => ({ item: items[i], startedAt: startedAt[i] })),
      list.filter((item) => item.tagInfo.status === 'Accepted').map((item) => item.req.idTag),
    );
    const fresh = primary.filter((_, n) => !existing[n]);
    primary.forEach((i, n) => {
      if (existing[n]) outcomes[i] = existing[n]!;
    });
    if (fresh.length) {
      // In call order: each recorded start opens a transaction for its tag.
      const decided = fresh.map((i) => {
        const item = items[i];
        const info: IdTagInfo =
          item.tagInfo.status === 'Accepted' && open.has(item.req.idTag)
            ? { ...item.tagInfo, status: 'ConcurrentTx' }
            : item.tagInfo;
        open.add(item.req.idTag);
        return { i, item, info };
      });
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
      ]);
      const created = new Map(inserted.map((row) => [row.i, row.transaction_id]));
      const raced: typeof decided = [];
      for (const { i, item, info } of decided) {
        const transactionId = created.get(i);
        if (transactionId === undefined) {
          // Another batch recorded the same start a moment ago, or an earlier call of this one stored alike.
          raced.push({ i, item, info });
          continue;
        }
        outcomes[i] = { transactionId, idTagStatus: info.status, created: true, idTagInfo: info };
      }
      if (raced.length) {
        const { found } = await this.findStarts(
          manager,
          raced.map((r) => ({ item: r.item, startedAt: startedAt[r.i] })),
          [],
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
   * batch parsed once), in order, and which of `tags` have an open transaction: one round trip, one
   * snapshot.
   */
  private async findStarts(
    manager: EntityManager,
    starts: { item: StartItem; startedAt: string }[],
    tags: string[],
  ): Promise<{ found: (StartOutcome | undefined)[]; openTags: Set<string> }> {
    const rows = await FIND_STARTS.run(manager, [
      starts.map((_, i) => i),
      starts.map(({ item }) => item.chargePointId),
      starts.map(({ item }) => item.req.connectorId),
      starts.map(({ item }) => item.req.idTag),
      starts.map(({ startedAt }) => startedAt),
      starts.map(({ item }) => item.req.meterStart),
      tags,
    ]);
    const found: (StartOutcome | undefined)[] = starts.map(() => undefined);
    const openTags = new Set<string>();
    for (const row of rows) {
      if (row.open_tag !== null) openTags.add(row.open_tag);
      else
        found[row.i!] = {
          transactionId: row.transaction_id!,
          idTagStatus: row.id_tag_status!,
          created: false,
          idTagInfo: { status: row.id_tag_status! },
        };
    }
    return { found, openTags };
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
 * Earlier records of these starts ($1-$6: index, pile, connector, tag, time, meter start; one row per start
 * found, `open_tag` null) and which of the tags $7 have an open transaction (one row per tag, `i` null).
 * The open-tag check is an EXISTS per tag: an index scan of the open-tag index that stops at the first
 * open transaction, rather than a bitmap scan of every entry of those tags. A stop leaves its dead entry
 * in that partial index until vacuum, and under a stream of starts and stops the bitmap scan visited them
 * all on every batch (6.9 ms per read at the end of a 60,000-call burst); an index scan marks the dead
 * entries it meets so later scans skip them.
 */
const FIND_STARTS = new PreparedStatement<{
  i: number | null;
  transaction_id: number | null;
  id_tag_status: AuthorizationStatus | null;
  open_tag: string | null;
}>(
  'ocpp.find-starts',
  `
  SELECT u.i, t.transaction_id, t.id_tag_status, NULL::text AS open_tag
    FROM unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::timestamptz[], $6::bigint[]) AS u(i, cp, connector, tag, ts, meter)
    JOIN ocpp_transaction t ON t.charge_point_id = u.cp AND t.connector_id = u.connector AND t.id_tag = u.tag
                           AND t.started_at = u.ts AND t.meter_start_wh = u.meter
  UNION ALL
  SELECT NULL::int, NULL::int, NULL::text, q.tag
    FROM (SELECT DISTINCT unnest($7::text[]) AS tag) AS q
   WHERE EXISTS (SELECT 1 FROM ocpp_transaction o WHERE o.id_tag = q.tag AND o.stopped_at IS NULL)`,
);

/** TransactionStarted of each created transaction ($9-$12, see writtenRowsOutboxInsert). */
const STARTED_EVENTS = writtenRowsOutboxInsert(TransactionStarted, {
  param: 9,
  written: 'created',
  completion: STARTED_COMPLETION,
});

/**
 * Insert the starts (a start already recorded, same business key, is skipped), match each inserted row to
 * its call on the values as stored (a key rebuilt in JavaScript from the returned row would miss a call
 * whose text PostgreSQL changed on the way in, and its start would go unannounced; two calls that
 * PostgreSQL stores alike get one row, the first is its creator), and add each created transaction's
 * TransactionStarted event with the id just assigned, in call order. $1-$8 the starts (in key order),
 * $9-$12 the events (STARTED_EVENTS).
 */
const START_TRANSACTIONS = new PreparedStatement<{ i: number; transaction_id: number }>(
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
  ), ${STARTED_EVENTS.ctes}
  SELECT i, transaction_id FROM created`,
);
