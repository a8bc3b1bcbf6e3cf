import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { createEnvelope, addToOutbox } from '@voltdepot/server-messaging';
import {
  MeterValuesReceived,
  TransactionStarted,
  TransactionStopped,
  type MeterSampleV1,
  type MeterValuesV1,
} from '@voltdepot/shared-events';
import {
  stopKindOf,
  type AuthorizationStatus,
  type IdTagInfo,
  type MeterValuesRequest,
  type StartTransactionRequest,
  type StopTransactionRequest,
} from '@voltdepot/shared-ocpp';
import {
  ENERGY_REGISTER,
  energyRegisterFlag,
  type RegisterReading,
  normalizeMeterValues,
  type NormalizedSample,
} from './meter-sample';

export type StartOutcome = {
  transactionId: number;
  idTagStatus: AuthorizationStatus;
  created: boolean;
  /** What to tell the pile: the tag's full decision for a new transaction, the stored status for a retry. */
  idTagInfo: IdTagInfo;
};
export type StopOutcome = { outcome: 'stopped' | 'already-stopped' | 'quarantined' | 'quarantined-again' };

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

/** One StopTransaction call. */
export type StopItem = { chargePointId: string; req: StopTransactionRequest; correlationId: string };
export type MeterOutcome = {
  inserted: number;
  duplicates: number;
  transactionId: number | null;
  /** The plausibility flags of the samples inserted, one entry per flagged sample (absent when none). */
  flags?: string[];
};

/** One MeterValues call, as the group-commit writer hands it over. */
export type MeterValuesItem = { chargePointId: string; req: MeterValuesRequest; correlationId: string };

/** The samples of one message (MeterValues, or a stop's transactionData), attributed to `tx`. */
type SampleGroup = {
  chargePointId: string;
  connectorId: number;
  claimedTransactionId: number | undefined;
  tx: TxRow | undefined;
  samples: NormalizedSample[];
  correlationId: string;
};

type TxRow = {
  transaction_id: number;
  connector_id: number;
  id_tag: string;
  id_tag_status: AuthorizationStatus;
  meter_start_wh: number;
  started_at: Date;
};

/**
 * Transactions, meter samples and quarantined stops. Every write runs in one database transaction
 * together with the outbox row of the event announcing it, and is keyed by the message's business
 * key, so a pile's retry finds the row its first attempt made and has no second effect.
 */
export type TransactionRepositoryOptions = {
  /**
   * Highest power a pile can deliver (W): an energy register rising faster since the previous reading is
   * flagged as a jump (see energyRegisterFlag). Unset: no bound.
   */
  maxPlausiblePowerW?: number;
};

export class TransactionRepository {
  constructor(private readonly options: TransactionRepositoryOptions = {}) {}

  /**
   * Record starts (idempotent on pile, connector, tag, timestamp, meterStart: a retry gets the first
   * attempt's transactionId and status). A start is always recorded, the pile has started already;
   * an accepted tag that already has an open transaction is told ConcurrentTx. Set-based, inside the
   * caller's transaction, with the same outcome per call as recording them one after another.
   */
  async startBatch(manager: EntityManager, items: StartItem[]): Promise<StartOutcome[]> {
    // Each item's business key, once (parsing its timestamp is the costly part).
    const startedAt = items.map((item) => instant(item.req.timestamp));
    const keys = items.map((item, i) =>
      startKey(item.chargePointId, item.req.connectorId, item.req.idTag, startedAt[i], item.req.meterStart),
    );
    const { primary, repeats } = splitRepeats(items, (_item, i) => keys[i]);
    const outcomes: StartOutcome[] = new Array(items.length);
    const list = primary.map((i) => items[i]);
    const existing = await this.findStarts(manager, list);
    const fresh = primary.filter((_, n) => !existing[n]);
    primary.forEach((i, n) => {
      if (existing[n]) outcomes[i] = existing[n]!;
    });
    if (fresh.length) {
      const acceptedTags = fresh.map((i) => items[i]).filter((item) => item.tagInfo.status === 'Accepted');
      const open = new Set<string>();
      if (acceptedTags.length) {
        const rows: { id_tag: string }[] = await manager.query(
          'SELECT DISTINCT id_tag FROM ocpp_transaction WHERE id_tag = ANY($1::text[]) AND stopped_at IS NULL',
          [acceptedTags.map((item) => item.req.idTag)],
        );
        for (const row of rows) open.add(row.id_tag);
      }
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
      // Each inserted row is matched to its call inside PostgreSQL, on the values as stored: a key
      // rebuilt in JavaScript from the returned row would miss a call whose text PostgreSQL changed
      // on the way in, and its start would go unannounced. Two calls that PostgreSQL stores alike get
      // one row: the first is its creator, the other finds it below as a repeat.
      const inserted: { i: number; transaction_id: number }[] = await manager.query(
        `WITH input AS (
           SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::text[], $6::bigint[],
                                $7::timestamptz[], $8::int[]) WITH ORDINALITY
             AS u(i, charge_point_id, connector_id, id_tag, id_tag_status, meter_start_wh, started_at,
                  reservation_id, n)
         ), inserted AS (
           INSERT INTO ocpp_transaction (charge_point_id, connector_id, id_tag, id_tag_status, meter_start_wh, started_at, reservation_id)
           SELECT charge_point_id, connector_id, id_tag, id_tag_status, meter_start_wh, started_at, reservation_id
             FROM input ORDER BY n
           ON CONFLICT ON CONSTRAINT ocpp_transaction_start_key DO NOTHING
           RETURNING transaction_id, charge_point_id, connector_id, id_tag, started_at, meter_start_wh
         )
         SELECT DISTINCT ON (inserted.transaction_id) input.i, inserted.transaction_id
           FROM inserted JOIN input USING (charge_point_id, connector_id, id_tag, started_at, meter_start_wh)
          ORDER BY inserted.transaction_id, input.n`,
        [
          ordered.map((d) => d.i),
          ordered.map((d) => d.item.chargePointId),
          ordered.map((d) => d.item.req.connectorId),
          ordered.map((d) => d.item.req.idTag),
          ordered.map((d) => d.info.status),
          ordered.map((d) => d.item.req.meterStart),
          ordered.map((d) => startedAt[d.i]),
          ordered.map((d) => d.item.req.reservationId ?? null),
        ],
      );
      const created = new Map(inserted.map((row) => [row.i, row.transaction_id]));
      const envelopes = [];
      const raced: typeof decided = [];
      for (const { i, item, info } of decided) {
        const transactionId = created.get(i);
        if (transactionId === undefined) {
          // Another batch recorded the same start a moment ago, or an earlier call of this one stored alike.
          raced.push({ i, item, info });
          continue;
        }
        outcomes[i] = { transactionId, idTagStatus: info.status, created: true, idTagInfo: info };
        const { req, chargePointId } = item;
        envelopes.push(
          createEnvelope(
            TransactionStarted,
            chargePointId,
            {
              chargePointId,
              connectorId: req.connectorId,
              transactionId,
              idTag: req.idTag,
              idTagStatus: info.status,
              meterStartWh: req.meterStart,
              timestamp: startedAt[i],
              ...(req.reservationId !== undefined ? { reservationId: req.reservationId } : {}),
            },
            { correlationId: item.correlationId, occurredAt: startedAt[i] },
          ),
        );
      }
      await addToOutbox(manager, envelopes);
      if (raced.length) {
        const found = await this.findStarts(
          manager,
          raced.map((r) => r.item),
        );
        raced.forEach((r, n) => {
          if (!found[n]) throw new Error('start transaction conflict without a row');
          outcomes[r.i] = found[n]!;
        });
      }
    }
    // The same start more than once in the batch: the later ones are retries of the first.
    if (repeats.length) {
      const again = await this.startBatch(
        manager,
        repeats.map((i) => items[i]),
      );
      repeats.forEach((i, n) => (outcomes[i] = again[n]));
    }
    return outcomes;
  }

  /**
   * Record the meter values of many calls, set-based: one query attributes every call to its
   * transaction, one reads the energy register history the plausibility check needs (when a call has
   * a reading to check), and one statement inserts every sample and adds the events. Only that last
   * statement writes, so it needs no transaction around it (the meter writer runs it without one: two
   * round trips fewer per batch); inside a caller's transaction it is part of that. Same results, per
   * call, as recording the calls one after another.
   */
  async recordMeterValuesBatch(manager: EntityManager, items: MeterValuesItem[]): Promise<MeterOutcome[]> {
    const txs = await this.resolveTransactions(
      manager,
      items.map(({ chargePointId, req }) => ({
        chargePointId,
        connectorId: req.connectorId,
        transactionId: req.transactionId,
        firstTimestamp: req.meterValue[0]?.timestamp,
      })),
    );
    return this.writeSampleGroups(
      manager,
      items.map(({ chargePointId, req, correlationId }, i) => ({
        chargePointId,
        connectorId: req.connectorId,
        claimedTransactionId: req.transactionId,
        tx: txs[i],
        samples: normalizeMeterValues(req.meterValue),
        correlationId,
      })),
    );
  }

  /**
   * Record stops. An unknown transaction (or one of another pile) is quarantined and announced as
   * such rather than refused: the pile has already ended it and would otherwise retry forever. A stop
   * of a transaction already stopped has no effect. Set-based, inside the caller's transaction, with
   * the same outcome per call as recording them one after another.
   */
  async stopBatch(manager: EntityManager, items: StopItem[]): Promise<StopOutcome[]> {
    const { primary, repeats } = splitRepeats(
      items,
      (item) => `${item.chargePointId}\u0000${item.req.transactionId}`,
    );
    const outcomes: StopOutcome[] = new Array(items.length);
    const list = primary.map((i) => ({ i, ...items[i], ...stopKindOf(items[i].req.reason) }));
    // TypeORM returns [rows, rowCount] for UPDATE ... RETURNING on PostgreSQL.
    const [updated]: [(TxRow & { i: number })[], number] = await manager.query(
      `UPDATE ocpp_transaction t
          SET meter_stop_wh = u.meter_stop, stopped_at = u.ts, stop_id_tag = u.tag, stop_reason = u.reason, stop_kind = u.kind
         FROM unnest($1::int[], $2::bigint[], $3::text[], $4::bigint[], $5::timestamptz[], $6::text[], $7::text[], $8::text[])
           AS u(i, tx, cp, meter_stop, ts, tag, reason, kind)
        WHERE t.transaction_id = u.tx AND t.charge_point_id = u.cp AND t.stopped_at IS NULL
        RETURNING u.i, t.transaction_id, t.connector_id, t.id_tag, t.id_tag_status, t.meter_start_wh, t.started_at`,
      [
        list.map((s) => s.i),
        list.map((s) => s.req.transactionId),
        list.map((s) => s.chargePointId),
        list.map((s) => s.req.meterStop),
        list.map((s) => instant(s.req.timestamp)),
        list.map((s) => s.req.idTag ?? null),
        list.map((s) => s.reason),
        list.map((s) => s.stopKind),
      ],
    );
    const stopped = meterAsNumber(updated);
    const rowOf = new Map(stopped.map((row) => [row.i, row]));
    const rest = list.filter((s) => !rowOf.has(s.i));
    const known = new Set<number>();
    if (rest.length) {
      const rows: { i: number }[] = await manager.query(
        `SELECT u.i FROM unnest($1::int[], $2::bigint[], $3::text[]) AS u(i, tx, cp)
           JOIN ocpp_transaction t ON t.transaction_id = u.tx AND t.charge_point_id = u.cp`,
        [rest.map((s) => s.i), rest.map((s) => s.req.transactionId), rest.map((s) => s.chargePointId)],
      );
      for (const row of rows) known.add(row.i);
    }
    const unknown = rest.filter((s) => !known.has(s.i));
    const quarantined = new Set<string>();
    if (unknown.length) {
      const rows: { charge_point_id: string; transaction_id: number; stopped_at: Date }[] =
        await manager.query(
          `INSERT INTO ocpp_stop_quarantine (charge_point_id, transaction_id, id_tag, meter_stop_wh, stopped_at, reason, payload)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::timestamptz[], $6::text[], $7::jsonb[])
         ON CONFLICT ON CONSTRAINT ocpp_stop_quarantine_key DO NOTHING
         RETURNING charge_point_id, transaction_id, stopped_at`,
          [
            unknown.map((s) => s.chargePointId),
            unknown.map((s) => s.req.transactionId),
            unknown.map((s) => s.req.idTag ?? null),
            unknown.map((s) => s.req.meterStop),
            unknown.map((s) => instant(s.req.timestamp)),
            unknown.map((s) => s.reason),
            unknown.map((s) => JSON.stringify(s.req)),
          ],
        );
      for (const row of rows)
        quarantined.add(
          quarantineKey(row.charge_point_id, row.transaction_id, new Date(row.stopped_at).toISOString()),
        );
    }

    const groups: SampleGroup[] = [];
    const envelopes = [];
    for (const s of list) {
      const { req, chargePointId, correlationId, reason, stopKind } = s;
      const timestamp = instant(req.timestamp);
      const meta = { correlationId, occurredAt: timestamp };
      const row = rowOf.get(s.i);
      if (row) {
        outcomes[s.i] = { outcome: 'stopped' };
        if (req.transactionData?.length)
          groups.push({
            chargePointId,
            connectorId: row.connector_id,
            claimedTransactionId: req.transactionId,
            tx: row,
            samples: normalizeMeterValues(req.transactionData),
            correlationId,
          });
        envelopes.push(
          createEnvelope(
            TransactionStopped,
            chargePointId,
            {
              chargePointId,
              connectorId: row.connector_id,
              transactionId: row.transaction_id,
              idTag: req.idTag ?? row.id_tag,
              meterStartWh: row.meter_start_wh,
              meterStopWh: req.meterStop,
              energyWh: req.meterStop - row.meter_start_wh,
              timestamp,
              reason,
              stopKind,
              quarantined: false,
            },
            meta,
          ),
        );
      } else if (known.has(s.i)) {
        outcomes[s.i] = { outcome: 'already-stopped' };
      } else if (!quarantined.delete(quarantineKey(chargePointId, req.transactionId, timestamp))) {
        outcomes[s.i] = { outcome: 'quarantined-again' };
      } else {
        outcomes[s.i] = { outcome: 'quarantined' };
        // An id beyond 32 bits is kept in the quarantine for reconciliation, but not announced: no
        // transaction of ours has such an id, and the areas downstream key transactions by our 32-bit ids.
        if (req.transactionId <= INT32_MAX && req.transactionId >= INT32_MIN)
          envelopes.push(
            createEnvelope(
              TransactionStopped,
              chargePointId,
              {
                chargePointId,
                connectorId: 0,
                transactionId: req.transactionId,
                ...(req.idTag ? { idTag: req.idTag } : {}),
                meterStopWh: req.meterStop,
                timestamp,
                reason,
                stopKind,
                quarantined: true,
              },
              meta,
            ),
          );
      }
    }
    // A stop's transactionData samples go before its TransactionStopped event, as in the call.
    if (groups.length) await this.writeSampleGroups(manager, groups);
    await addToOutbox(manager, envelopes);
    if (repeats.length) {
      const again = await this.stopBatch(
        manager,
        repeats.map((i) => items[i]),
      );
      repeats.forEach((i, n) => (outcomes[i] = again[n]));
    }
    return outcomes;
  }

  /** The transactions already recorded for these starts (by business key), in order. */
  private async findStarts(
    manager: EntityManager,
    items: Pick<StartItem, 'chargePointId' | 'req'>[],
  ): Promise<(StartOutcome | undefined)[]> {
    const rows: { i: number; transaction_id: number; id_tag_status: AuthorizationStatus }[] =
      await manager.query(
        `SELECT u.i, t.transaction_id, t.id_tag_status
         FROM unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::timestamptz[], $6::bigint[]) AS u(i, cp, connector, tag, ts, meter)
         JOIN ocpp_transaction t ON t.charge_point_id = u.cp AND t.connector_id = u.connector AND t.id_tag = u.tag
                                AND t.started_at = u.ts AND t.meter_start_wh = u.meter`,
        [
          items.map((_, i) => i),
          items.map((item) => item.chargePointId),
          items.map((item) => item.req.connectorId),
          items.map((item) => item.req.idTag),
          items.map((item) => instant(item.req.timestamp)),
          items.map((item) => item.req.meterStart),
        ],
      );
    const found: (StartOutcome | undefined)[] = items.map(() => undefined);
    for (const row of rows)
      found[row.i] = {
        transactionId: row.transaction_id,
        idTagStatus: row.id_tag_status,
        created: false,
        idTagInfo: { status: row.id_tag_status },
      };
    return found;
  }

  /**
   * The transaction each message's meter values belong to: the one it names (of the same pile), or
   * else the connector's open transaction that started before the first sample.
   */
  private async resolveTransactions(
    manager: EntityManager,
    lookups: {
      chargePointId: string;
      connectorId: number;
      transactionId: number | undefined;
      firstTimestamp: string | undefined;
    }[],
  ): Promise<(TxRow | undefined)[]> {
    const wanted = lookups
      .map((lookup, i) => ({ ...lookup, i }))
      .filter((l) => l.transactionId !== undefined || (l.connectorId !== 0 && l.firstTimestamp));
    const found: (TxRow | undefined)[] = lookups.map(() => undefined);
    if (!wanted.length) return found;
    const rows: (TxRow & { i: number })[] = meterAsNumber(
      await manager.query(
        `SELECT u.i, t.transaction_id, t.connector_id, t.id_tag, t.meter_start_wh, t.started_at
         FROM unnest($1::int[], $2::text[], $3::int[], $4::bigint[], $5::timestamptz[]) AS u(i, cp, connector, tx, ts)
         CROSS JOIN LATERAL (
           SELECT o.transaction_id, o.connector_id, o.id_tag, o.meter_start_wh, o.started_at
             FROM ocpp_transaction o
            WHERE u.tx IS NOT NULL AND o.transaction_id = u.tx AND o.charge_point_id = u.cp
           UNION ALL
           (SELECT o.transaction_id, o.connector_id, o.id_tag, o.meter_start_wh, o.started_at
              FROM ocpp_transaction o
             WHERE u.tx IS NULL AND o.charge_point_id = u.cp AND o.connector_id = u.connector
               AND o.stopped_at IS NULL AND o.started_at <= u.ts
             ORDER BY o.started_at DESC LIMIT 1)
         ) AS t`,
        [
          wanted.map((l) => l.i),
          wanted.map((l) => l.chargePointId),
          wanted.map((l) => l.connectorId),
          wanted.map((l) => l.transactionId ?? null),
          wanted.map((l) => l.firstTimestamp ?? null),
        ],
      ),
    );
    for (const { i, ...row } of rows) found[i] = row;
    return found;
  }

  /**
   * Insert the samples of several messages in one statement (a retried sample, same business key, is
   * skipped) and announce what each message added. Energy register readings are checked against the
   * highest earlier reading of their transaction (stored or earlier in this batch) and flagged, never
   * dropped, when implausible.
   */
  private async writeSampleGroups(manager: EntityManager, groups: SampleGroup[]): Promise<MeterOutcome[]> {
    /** `pos`: the row's place in the batch, where each message's samples follow each other in order. */
    type Row = {
      group: number;
      pos: number;
      sample: NormalizedSample;
      flag: string | undefined;
      key: string;
    };
    const rows: Row[] = [];
    const candidates: Row[] = [];
    groups.forEach((group, g) => {
      for (const sample of group.samples) {
        let flag = sample.flag;
        if (!flag && group.claimedTransactionId !== undefined && !group.tx) flag = 'unknown-transaction';
        const row: Row = { group: g, pos: rows.length, sample, flag, key: sampleKey(group, sample) };
        rows.push(row);
        if (!flag && group.tx && isEnergyRegister(sample)) candidates.push(row);
      }
    });
    if (!rows.length)
      return groups.map((g) => ({ inserted: 0, duplicates: 0, transactionId: g.tx?.transaction_id ?? null }));

    if (candidates.length) {
      // The highest accepted reading at or before each candidate's time, and when it was taken.
      const stored: { max: string | null; max_at: Date | null }[] = await manager.query(
        `SELECT m.value::text AS max, m.sampled_at AS max_at
           FROM unnest($1::int[], $2::timestamptz[]) WITH ORDINALITY AS u(tx, ts, n)
           LEFT JOIN LATERAL (
             SELECT s.value, s.sampled_at FROM ocpp_meter_sample s
              WHERE s.transaction_id = u.tx AND s.measurand = $3 AND s.phase = '' AND s.sampled_at <= u.ts
                AND s.value <> 'NaN' AND s.flag IS NULL
              ORDER BY s.value DESC, s.sampled_at DESC LIMIT 1) m ON true
          ORDER BY u.n`,
        [
          candidates.map((c) => groups[c.group].tx!.transaction_id),
          candidates.map((c) => c.sample.sampledAt),
          ENERGY_REGISTER,
        ],
      );
      // Readings accepted earlier in this batch count as history too, as if stored one after another.
      const accepted = new Map<number, { at: string; value: number }[]>();
      candidates.forEach((candidate, i) => {
        const tx = groups[candidate.group].tx!;
        const earlier = accepted.get(tx.transaction_id) ?? [];
        let previous: RegisterReading = { valueWh: tx.meter_start_wh, at: new Date(tx.started_at).getTime() };
        const higher = (valueWh: number, at: number) => {
          if (valueWh > previous.valueWh || (valueWh === previous.valueWh && at > previous.at))
            previous = { valueWh, at };
        };
        const { max, max_at } = stored[i];
        if (max !== null && max_at !== null) higher(Number(max), new Date(max_at).getTime());
        for (const reading of earlier)
          if (reading.at <= candidate.sample.sampledAt) higher(reading.value, Date.parse(reading.at));
        candidate.flag = energyRegisterFlag(
          candidate.sample.value,
          previous,
          Date.parse(candidate.sample.sampledAt),
          this.options.maxPlausiblePowerW,
        );
        if (!candidate.flag) {
          earlier.push({ at: candidate.sample.sampledAt, value: candidate.sample.value });
          accepted.set(tx.transaction_id, earlier);
        }
      });
    }

    // Each message's event, announcing the samples of it that turn out to be new: the statement below
    // adds `samples` and `flagged` to the payload's head from the rows it inserted, and its time, and
    // skips a message with none.
    const heads = groups.map((group): Omit<MeterValuesV1, 'samples' | 'flagged'> => ({
      chargePointId: group.chargePointId,
      connectorId: group.connectorId,
      ...(group.tx ? { transactionId: group.tx.transaction_id } : {}),
    }));
    // Inserted in key order, so that two batches holding the same retried sample cannot deadlock.
    const ordered = [...rows].sort((a, b) => compare(a.key, b.key));
    // Rows and events as two JSON parameters: node-postgres would escape array elements (the event
    // samples above all) character by character, the largest allocation in the gateway under load.
    const written: { pos: number }[] = await manager.query(METER_SAMPLES_AND_EVENTS_SQL, [
      JSON.stringify(
        ordered.map((r, n) => {
          const group = groups[r.group];
          return {
            charge_point_id: group.chargePointId,
            connector_id: group.connectorId,
            transaction_id: group.tx?.transaction_id ?? null,
            sampled_at: r.sample.sampledAt,
            measurand: r.sample.measurand,
            phase: r.sample.phase,
            location: r.sample.location,
            context: r.sample.context,
            value: Number.isNaN(r.sample.value) ? 'NaN' : String(r.sample.value),
            unit: r.sample.unit ?? null,
            flag: r.flag ?? null,
            grp: r.group,
            pos: r.pos,
            sample: publishedSample(r.sample, r.flag),
            n: n + 1,
          };
        }),
      ),
      JSON.stringify(
        groups.map((g, n) => ({
          event_id: randomUUID(),
          key: g.chargePointId,
          correlation_id: g.correlationId,
          head: heads[n],
          n: n + 1,
        })),
      ),
      MeterValuesReceived.topic,
      MeterValuesReceived.type,
      MeterValuesReceived.version,
    ]);
    const inserted = new Set(written.map((w) => Number(w.pos)));

    const outcomes: MeterOutcome[] = groups.map((g) => ({
      inserted: 0,
      duplicates: 0,
      transactionId: g.tx?.transaction_id ?? null,
    }));
    for (const row of rows) {
      // A key inserted once counts for its first sample; a repeat (stored already, or earlier in this
      // batch) is a duplicate.
      if (!inserted.has(row.pos)) {
        outcomes[row.group].duplicates++;
        continue;
      }
      outcomes[row.group].inserted++;
      if (row.flag) (outcomes[row.group].flags ??= []).push(row.flag);
    }
    return outcomes;
  }
}

/** A sample as the MeterValuesReceived event carries it (empty qualifiers left out). */
function publishedSample(sample: NormalizedSample, flag: string | undefined): MeterSampleV1 {
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

/**
 * The samples of a batch of messages and their events, in one statement (so one round trip, and atomic
 * without a transaction around it): insert the rows (a key stored already, or repeated within the batch,
 * is skipped), then add one outbox event per message for the rows of it that were inserted, samples in
 * message order, occurring at the first of them. Returns the batch positions (`pos`) of the rows
 * inserted. $1 the rows (JSON array): the columns, `grp` the message (group) index, `pos` the position,
 * `sample` the sample as the event carries it, `n` the row's place in insertion order; $2 the events, one
 * per message (JSON array): id, key, correlation id, `head` the payload without `samples` and `flagged`,
 * `n` the message's index + 1; $3-$5 the event's topic, type and version.
 * The outbox columns are those `addToOutbox` writes (one statement here, so they cannot be shared).
 */
const METER_SAMPLES_AND_EVENTS_SQL = `
  WITH input AS (
    SELECT * FROM jsonb_to_recordset($1::jsonb)
      AS u(charge_point_id text, connector_id int, transaction_id int, sampled_at timestamptz, measurand text,
           phase text, location text, context text, value numeric, unit text, flag text, grp int, pos int,
           sample jsonb, n int)
  ), inserted AS (
    INSERT INTO ocpp_meter_sample (charge_point_id, connector_id, transaction_id, sampled_at, measurand, phase,
                                   location, context, value, unit, flag)
    SELECT charge_point_id, connector_id, transaction_id, sampled_at, measurand, phase, location, context,
           value, unit, flag
      FROM input ORDER BY n
    ON CONFLICT ON CONSTRAINT ocpp_meter_sample_key DO NOTHING
    RETURNING charge_point_id, connector_id, sampled_at, measurand, phase, location, context
  ), firsts AS (
    SELECT DISTINCT ON (i.charge_point_id, i.connector_id, i.sampled_at, i.measurand, i.phase, i.location, i.context)
           i.grp, i.pos, i.sample, i.flag, i.sampled_at
      FROM inserted s
      JOIN input i USING (charge_point_id, connector_id, sampled_at, measurand, phase, location, context)
     ORDER BY i.charge_point_id, i.connector_id, i.sampled_at, i.measurand, i.phase, i.location, i.context, i.n
  ), events AS (
    SELECT * FROM jsonb_to_recordset($2::jsonb) AS e(event_id uuid, key text, correlation_id text, head jsonb, n int)
  ), outbox AS (
    INSERT INTO outbox_event (event_id, topic, key, type, version, occurred_at, correlation_id, payload)
    SELECT e.event_id, $3::text, e.key, $4::text, $5::int, (array_agg(f.sampled_at ORDER BY f.pos))[1],
           e.correlation_id,
           e.head || jsonb_build_object('samples', jsonb_agg(f.sample ORDER BY f.pos),
                                        'flagged', bool_or(f.flag IS NOT NULL))
      FROM firsts f JOIN events e ON e.n = f.grp + 1
     GROUP BY e.n, e.event_id, e.key, e.correlation_id, e.head
     ORDER BY e.n
    ON CONFLICT (event_id) DO NOTHING
  )
  SELECT pos FROM firsts`;

function sampleKey(
  group: Pick<SampleGroup, 'chargePointId' | 'connectorId'>,
  sample: NormalizedSample,
): string {
  return [
    group.chargePointId,
    group.connectorId,
    sample.sampledAt,
    sample.measurand,
    sample.phase,
    sample.location,
    sample.context,
  ].join('\u0000');
}

function isEnergyRegister(sample: NormalizedSample): boolean {
  return sample.measurand === ENERGY_REGISTER && sample.phase === '' && sample.unit === 'Wh';
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

const INT32_MAX = 2 ** 31 - 1;
const INT32_MIN = -(2 ** 31);

function quarantineKey(chargePointId: string, transactionId: number, stoppedAt: string): string {
  return `${chargePointId}\u0000${transactionId}\u0000${stoppedAt}`;
}

/**
 * A pile's date-time to the millisecond, as stored and as matched. Business keys are compared in
 * JavaScript (milliseconds, truncated) against what PostgreSQL returns; stored with finer digits,
 * PostgreSQL would round them (…00.1239996 -> …00.124) and a row could no longer be matched to its call.
 */
function instant(timestamp: string): string {
  return new Date(timestamp).toISOString();
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Indexes of the first item of each key (`primary`) and of the later ones (`repeats`, retries of
 * an earlier item in the same batch, applied after it).
 */
function splitRepeats<T>(
  items: T[],
  keyOf: (item: T, index: number) => string,
): { primary: number[]; repeats: number[] } {
  const seen = new Set<string>();
  const primary: number[] = [];
  const repeats: number[] = [];
  items.forEach((item, i) => {
    const key = keyOf(item, i);
    if (seen.has(key)) repeats.push(i);
    else {
      seen.add(key);
      primary.push(i);
    }
  });
  return { primary, repeats };
}

/** `meter_start_wh` is a bigint column, which node-postgres reads as text: make it a number again. */
function meterAsNumber<T extends { meter_start_wh: number }>(rows: T[]): T[] {
  for (const row of rows) row.meter_start_wh = Number(row.meter_start_wh);
  return rows;
}
