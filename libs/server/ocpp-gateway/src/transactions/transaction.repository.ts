import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { PreparedStatement } from '@voltdepot/server-database';
import { createEnvelope } from '@voltdepot/server-messaging';
import {
  type EventEnvelope,
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
import { isInt32 } from '../persistence/storable-values';

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

/** The highest accepted energy register reading stored before a reading to check, and when it was taken. */
type StoredReading = { max: string | null; max_at: Date | null };
/** Stored history per reading to check (the sample object as normalised), read with the transactions. */
type StoredHistory = Map<NormalizedSample, StoredReading>;

type TxRow = {
  transaction_id: number;
  connector_id: number;
  id_tag: string;
  id_tag_status: AuthorizationStatus;
  meter_start_wh: number;
  started_at: Date;
};

/**
 * Transactions, meter samples and quarantined stops. Every write commits together with the outbox row
 * of the event announcing it (one statement writing both, or one database transaction), and is keyed
 * by the message's business key, so a pile's retry finds the row its first attempt made and has no
 * second effect.
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
   * an accepted tag that already has an open transaction is told ConcurrentTx. Set-based, with the same
   * outcome per call as recording them one after another.
   *
   * Two round trips: one read (earlier records of these starts, and which of their tags have an open
   * transaction) and one statement that inserts the transactions and their TransactionStarted events
   * together. That statement is the only write, atomic by itself, so the start writer runs it without
   * BEGIN and COMMIT around it (each a round trip more, which under load waits for a busy event loop);
   * inside a caller's transaction it is part of that. The read needs no transaction either: under READ
   * COMMITTED each statement sees a fresh snapshot anyway, and starts of one tag are never written by two
   * batches at once (see the start writer's sharding by tag).
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
      // Each call's event, but for the transaction id the insert assigns (set in the statement).
      const events = decided.map(({ i, item, info }) => {
        const { req, chargePointId } = item;
        const envelope = createEnvelope(
          TransactionStarted,
          chargePointId,
          {
            chargePointId,
            connectorId: req.connectorId,
            transactionId: 0,
            idTag: req.idTag,
            idTagStatus: info.status,
            meterStartWh: req.meterStart,
            timestamp: startedAt[i],
            ...(req.reservationId !== undefined ? { reservationId: req.reservationId } : {}),
          },
          { correlationId: item.correlationId, occurredAt: startedAt[i] },
        );
        return eventRecord(i, envelope);
      });
      const inserted = await START_TRANSACTIONS.run(manager, [
        ordered.map((d) => d.i),
        ordered.map((d) => d.item.chargePointId),
        ordered.map((d) => d.item.req.connectorId),
        ordered.map((d) => d.item.req.idTag),
        ordered.map((d) => d.info.status),
        ordered.map((d) => d.item.req.meterStart),
        ordered.map((d) => startedAt[d.i]),
        ordered.map((d) => d.item.req.reservationId ?? null),
        JSON.stringify(events),
        TransactionStarted.topic,
        TransactionStarted.type,
        TransactionStarted.version,
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
   * transaction and reads, for each energy register reading to check, the highest accepted reading of
   * that transaction before it (the plausibility check's history); one statement inserts every sample
   * and adds the events. Only that last statement writes, so it needs no transaction around it (the
   * meter writer runs it without one); inside a caller's transaction it is part of that. Same results,
   * per call, as recording the calls one after another.
   */
  async recordMeterValuesBatch(manager: EntityManager, items: MeterValuesItem[]): Promise<MeterOutcome[]> {
    const samples = items.map(({ req }) => normalizeMeterValues(req.meterValue));
    const { txs, history } = await this.resolveTransactions(
      manager,
      items.map(({ chargePointId, req }, i) => ({
        chargePointId,
        connectorId: req.connectorId,
        transactionId: req.transactionId,
        firstTimestamp: req.meterValue[0]?.timestamp,
        // The readings the plausibility check may look at (those of a call with a transaction).
        readings: samples[i].filter((sample) => !sample.flag && isEnergyRegister(sample)),
      })),
    );
    return this.writeSampleGroups(
      manager,
      items.map(({ chargePointId, req, correlationId }, i) => ({
        chargePointId,
        connectorId: req.connectorId,
        claimedTransactionId: req.transactionId,
        tx: txs[i],
        samples: samples[i],
        correlationId,
      })),
      history,
    );
  }

  /**
   * Record stops. An unknown transaction (or one of another pile) is quarantined and announced as
   * such rather than refused: the pile has already ended it and would otherwise retry forever. A stop
   * of a transaction already stopped has no effect. Set-based, with the same outcome per call as
   * recording them one after another.
   *
   * Each write is one statement together with the events announcing it: stopping the transactions
   * (and their TransactionStopped events, the stored start values merged in by PostgreSQL), and
   * quarantining the unknown ones (and theirs). A batch of stops of known transactions is so one round
   * trip, which the stop writer runs without BEGIN and COMMIT. Stops that carry transactionData write
   * their samples (and events) first, which makes two writes that must commit together: such a batch
   * runs in a transaction (its own unless the caller's), and locks the transactions it stops first, so
   * that only the call that stops a transaction records its samples, as before.
   */
  async stopBatch(manager: EntityManager, items: StopItem[]): Promise<StopOutcome[]> {
    const { primary, repeats } = splitRepeats(
      items,
      (item) => `${item.chargePointId}\u0000${item.req.transactionId}`,
    );
    const list = primary.map((i) => ({
      i,
      ...items[i],
      timestamp: instant(items[i].req.timestamp),
      ...stopKindOf(items[i].req.reason),
    }));
    const withData = list.filter((s) => s.req.transactionData?.length);
    if (withData.length && !manager.queryRunner?.isTransactionActive)
      return manager.transaction((inTransaction) => this.stopBatch(inTransaction, items));
    const outcomes: StopOutcome[] = new Array(items.length);

    if (withData.length) {
      // The transactions these stops will stop, locked so that a copy of the same stop in another
      // batch waits for this one and then finds its transaction stopped (and writes no samples).
      const open = meterAsNumber<TxRow & { i: number }>(
        await manager.query(
          `SELECT u.i, t.transaction_id, t.connector_id, t.id_tag, t.id_tag_status, t.meter_start_wh, t.started_at
             FROM unnest($1::int[], $2::bigint[], $3::text[]) AS u(i, tx, cp)
             JOIN ocpp_transaction t ON t.transaction_id = u.tx AND t.charge_point_id = u.cp AND t.stopped_at IS NULL
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
      if (groups.length) await this.writeSampleGroups(manager, groups);
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
      JSON.stringify(
        list.map((s) => {
          const envelope = createEnvelope(
            TransactionStopped,
            s.chargePointId,
            {
              chargePointId: s.chargePointId,
              // Connector, transaction, tag, start and energy: set from the row by the statement.
              connectorId: 0,
              transactionId: 0,
              idTag: s.req.idTag,
              meterStartWh: 0,
              meterStopWh: s.req.meterStop,
              energyWh: 0,
              timestamp: s.timestamp,
              reason: s.reason,
              stopKind: s.stopKind,
              quarantined: false,
            },
            { correlationId: s.correlationId, occurredAt: s.timestamp },
          );
          return eventRecord(s.i, envelope);
        }),
      ),
      TransactionStopped.topic,
      TransactionStopped.type,
      TransactionStopped.version,
    ]);
    for (const { i } of stoppedRows) outcomes[i] = { outcome: 'stopped' };

    const rest = list.filter((s) => !outcomes[s.i]);
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
        JSON.stringify(
          unknown
            // An id beyond 32 bits is kept in the quarantine for reconciliation, but not announced: no
            // transaction of ours has such an id, and the areas downstream key transactions by our 32-bit ids.
            .filter((s) => isInt32(s.req.transactionId))
            .map((s) => {
              const { req, chargePointId } = s;
              const envelope = createEnvelope(
                TransactionStopped,
                chargePointId,
                {
                  chargePointId,
                  connectorId: 0,
                  transactionId: req.transactionId,
                  ...(req.idTag ? { idTag: req.idTag } : {}),
                  meterStopWh: req.meterStop,
                  timestamp: s.timestamp,
                  reason: s.reason,
                  stopKind: s.stopKind,
                  quarantined: true,
                },
                { correlationId: s.correlationId, occurredAt: s.timestamp },
              );
              return eventRecord(s.i, envelope);
            }),
        ),
        TransactionStopped.topic,
        TransactionStopped.type,
        TransactionStopped.version,
      ]);
      for (const row of rows) quarantined.add(row.i);
    }
    for (const s of rest)
      outcomes[s.i] = known.has(s.i)
        ? { outcome: 'already-stopped' }
        : quarantined.has(s.i)
          ? { outcome: 'quarantined' }
          : { outcome: 'quarantined-again' };

    if (repeats.length) {
      const again = await this.stopBatch(
        manager,
        repeats.map((i) => items[i]),
      );
      repeats.forEach((i, n) => (outcomes[i] = again[n]));
    }
    return outcomes;
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

  /**
   * The transaction each message's meter values belong to: the one it names (of the same pile), or
   * else the connector's open transaction that started before the first sample. With it, for each of
   * the message's `readings` when it has a transaction, the highest accepted energy register reading
   * stored for that transaction at or before the reading's time (see StoredHistory). One query.
   */
  private async resolveTransactions(
    manager: EntityManager,
    lookups: {
      chargePointId: string;
      connectorId: number;
      transactionId: number | undefined;
      firstTimestamp: string | undefined;
      readings: NormalizedSample[];
    }[],
  ): Promise<{ txs: (TxRow | undefined)[]; history: StoredHistory }> {
    const wanted = lookups
      .map((lookup, i) => ({ ...lookup, i }))
      .filter((l) => l.transactionId !== undefined || (l.connectorId !== 0 && l.firstTimestamp));
    const txs: (TxRow | undefined)[] = lookups.map(() => undefined);
    const history: StoredHistory = new Map();
    if (!wanted.length) return { txs, history };
    const readings = wanted.flatMap((l) => l.readings.map((sample) => ({ i: l.i, sample })));
    const rows = await RESOLVE_TRANSACTIONS.run(manager, [
      JSON.stringify(
        wanted.map((l) => ({
          i: l.i,
          cp: l.chargePointId,
          connector: l.connectorId,
          tx: l.transactionId ?? null,
          ts: l.firstTimestamp ?? null,
        })),
      ),
      JSON.stringify(readings.map((r, n) => ({ i: r.i, ts: r.sample.sampledAt, r: n + 1 }))),
      ENERGY_REGISTER,
    ]);
    for (const { i, r, max, max_at, ...row } of rows) {
      if (r === null) txs[i] = meterAsNumber([row as TxRow])[0];
      else history.set(readings[r - 1].sample, { max, max_at });
    }
    return { txs, history };
  }

  /** For each candidate reading, the highest accepted one stored for its transaction at or before it. */
  private async readStoredHistory(
    manager: EntityManager,
    groups: SampleGroup[],
    candidates: { group: number; sample: NormalizedSample }[],
  ): Promise<StoredReading[]> {
    return manager.query(
      `SELECT m.value::text AS max, m.sampled_at AS max_at
         FROM unnest($1::int[], $2::timestamptz[]) WITH ORDINALITY AS u(tx, ts, n)
         LEFT JOIN LATERAL (${highestReading('$3')}) m ON true
        ORDER BY u.n`,
      [
        candidates.map((c) => groups[c.group].tx!.transaction_id),
        candidates.map((c) => c.sample.sampledAt),
        ENERGY_REGISTER,
      ],
    );
  }

  /**
   * Insert the samples of several messages in one statement (a retried sample, same business key, is
   * skipped) and announce what each message added. Energy register readings are checked against the
   * highest earlier reading of their transaction (stored or earlier in this batch) and flagged, never
   * dropped, when implausible.
   */
  private async writeSampleGroups(
    manager: EntityManager,
    groups: SampleGroup[],
    /** Each candidate reading's stored history, read already (else read here). */
    history?: StoredHistory,
  ): Promise<MeterOutcome[]> {
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
      // (Read with the transactions for every candidate; read here if one were missing.)
      const stored = candidates.every((c) => history?.has(c.sample))
        ? candidates.map((c) => history!.get(c.sample)!)
        : await this.readStoredHistory(manager, groups, candidates);
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
    const written = await METER_SAMPLES_AND_EVENTS.run(manager, [
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
 * The highest accepted energy register reading of transaction `u.tx` at or before `u.ts`, for a LATERAL
 * join; `measurand` the parameter holding the energy register's measurand.
 */
function highestReading(measurand: string): string {
  return `SELECT s.value, s.sampled_at FROM ocpp_meter_sample s
   WHERE s.transaction_id = u.tx AND s.measurand = ${measurand} AND s.phase = '' AND s.sampled_at <= u.ts
     AND s.value <> 'NaN' AND s.flag IS NULL
   ORDER BY s.value DESC, s.sampled_at DESC LIMIT 1`;
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

/**
 * Each message's transaction ($1, JSON rows: `i` index, `cp` pile, `connector`, `tx` claimed transaction,
 * `ts` first sample time): the claimed one of the same pile, or the connector's open one started before
 * the first sample; one row per message found (`r` null). Then, for each reading to check ($2, JSON rows:
 * `i` its message's index, `ts` its time, `r` its 1-based position) whose message has a transaction, the
 * highest accepted reading stored before it. $3 the energy register's measurand. JSON rather than
 * arrays: PostgreSQL sees an array's length when it plans for the values, so a small batch always looked
 * cheaper planned afresh (0.4-0.5 ms of planning for 0.05 ms of work); a JSON set is estimated alike
 * either way, and the prepared statement keeps its generic plan.
 */
const RESOLVE_TRANSACTIONS = new PreparedStatement<
  Partial<TxRow> & { i: number; r: number | null; max: string | null; max_at: Date | null }
>(
  'ocpp.resolve-transactions',
  `
  WITH found AS (
    SELECT g.i, t.transaction_id, t.connector_id, t.id_tag, t.meter_start_wh, t.started_at
      FROM jsonb_to_recordset($1::jsonb) AS g(i int, cp text, connector int, tx bigint, ts timestamptz)
      CROSS JOIN LATERAL (
        SELECT o.transaction_id, o.connector_id, o.id_tag, o.meter_start_wh, o.started_at
          FROM ocpp_transaction o
         WHERE g.tx IS NOT NULL AND o.transaction_id = g.tx AND o.charge_point_id = g.cp
        UNION ALL
        (SELECT o.transaction_id, o.connector_id, o.id_tag, o.meter_start_wh, o.started_at
           FROM ocpp_transaction o
          WHERE g.tx IS NULL AND o.charge_point_id = g.cp AND o.connector_id = g.connector
            AND o.stopped_at IS NULL AND o.started_at <= g.ts
          ORDER BY o.started_at DESC LIMIT 1)
      ) AS t
  )
  SELECT i, NULL::int AS r, transaction_id, connector_id, id_tag, meter_start_wh, started_at,
         NULL::text AS max, NULL::timestamptz AS max_at
    FROM found
  UNION ALL
  SELECT f.i, u.r, NULL, NULL, NULL, NULL, NULL, m.value::text, m.sampled_at
    FROM jsonb_to_recordset($2::jsonb) AS p(i int, ts timestamptz, r int)
    JOIN found f USING (i)
    CROSS JOIN LATERAL (SELECT f.transaction_id AS tx, p.ts, p.r) AS u
    LEFT JOIN LATERAL (${highestReading('$3')}) m ON true`,
);

/**
 * The two closing CTEs of a statement that writes rows and announces them: `events`, the events as $9
 * (JSON, one per call index `i`, see eventRecord), and `outbox`, adding to the outbox the event of each
 * row of `written` (a CTE with the call index `i`, aliased `w`), in call order, with `payload` as
 * computed from `e` and `w`; $10-$12 the event's topic, type and version. The outbox columns are those
 * `addToOutbox` writes.
 */
function announced(written: string, payload: string): string {
  return `events AS (
    SELECT * FROM jsonb_to_recordset($9::jsonb)
      AS e(i int, event_id uuid, key text, occurred_at timestamptz, correlation_id text, payload jsonb)
  ), outbox AS (
    INSERT INTO outbox_event (event_id, topic, key, type, version, occurred_at, correlation_id, payload)
    SELECT e.event_id, $10::text, e.key, $11::text, $12::int, e.occurred_at, e.correlation_id, ${payload}
      FROM ${written} w JOIN events e USING (i)
     ORDER BY w.i
    ON CONFLICT (event_id) DO NOTHING
  )`;
}

/**
 * Stop the transactions (those open, of the same pile) and add a TransactionStopped event for each one
 * stopped, in call order, its payload completed from the row: connector, transaction, the tag (the
 * stop's, else the start's), meter start and energy. $1-$8 the stops, $9 the events (JSON, by call
 * index), $10-$12 the event's topic, type and version. Returns the call indexes stopped.
 */
const STOP_TRANSACTIONS = new PreparedStatement<{ i: number }>(
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
     WHERE t.transaction_id = u.tx AND t.charge_point_id = u.cp AND t.stopped_at IS NULL
    RETURNING u.i, u.tag, u.meter_stop, t.transaction_id, t.connector_id, t.id_tag, t.meter_start_wh
  ), ${announced(
    'stopped',
    `e.payload || jsonb_build_object('connectorId', w.connector_id, 'transactionId', w.transaction_id,
                                     'idTag', COALESCE(w.tag, w.id_tag), 'meterStartWh', w.meter_start_wh,
                                     'energyWh', w.meter_stop - w.meter_start_wh)`,
  )}
  SELECT i FROM stopped`,
);

/**
 * Quarantine stops of unknown transactions (a stop quarantined already, same pile, transaction and
 * time, is skipped) and announce each one newly quarantined, in call order. Each row inserted is matched
 * to its call on the values as stored; two calls that PostgreSQL stores alike get one row, the first is
 * its creator. $1-$8 the stops, $9 the events (JSON, by call index; none for ids beyond 32 bits),
 * $10-$12 the event's topic, type and version. Returns the call indexes newly quarantined.
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
  ), ${announced('created', 'e.payload')}
  SELECT i FROM created`,
);

/**
 * Insert the starts (a start already recorded, same business key, is skipped), match each inserted row to
 * its call on the values as stored (a key rebuilt in JavaScript from the returned row would miss a call
 * whose text PostgreSQL changed on the way in, and its start would go unannounced; two calls that
 * PostgreSQL stores alike get one row, the first is its creator), and add each created transaction's
 * TransactionStarted event with the id just assigned, in call order. $1-$8 the starts (in key order),
 * $9 the events (JSON, by call index), $10-$12 the event's topic, type and version.
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
  ), ${announced('created', "e.payload || jsonb_build_object('transactionId', w.transaction_id)")}
  SELECT i, transaction_id FROM created`,
);

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
const METER_SAMPLES_AND_EVENTS = new PreparedStatement<{ pos: number }>(
  'ocpp.meter-samples-and-events',
  `
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
  SELECT pos FROM firsts`,
);

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

/**
 * An event as the write statements take it (in their `events` recordset): the call index it belongs to
 * and the envelope's fields; topic, type and version are the statement's parameters.
 */
function eventRecord(i: number, envelope: EventEnvelope) {
  return {
    i,
    event_id: envelope.eventId,
    key: envelope.key,
    occurred_at: envelope.occurredAt,
    correlation_id: envelope.correlationId,
    payload: envelope.payload,
  };
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
