import type { EntityManager } from 'typeorm';
import { PreparedStatement } from '@voltdepot/server-database';
import { writtenRowsOutboxInsert } from '@voltdepot/server-messaging';
import { MeterValuesReceived } from '@voltdepot/shared-events';
import { compare } from './batch-items';
import {
  ENERGY_REGISTER,
  energyRegisterFlag,
  type NormalizedSample,
  type RegisterReading,
} from './meter-sample';
import {
  METER_VALUES_COMPLETION,
  METER_VALUES_OCCURRED_AT,
  meterValuesHead,
  publishedSample,
} from './transaction-events';
import type { TxRow } from './transaction-row';

/** What the samples of one message came to: stored (inserted), or found stored already (duplicates). */
export type MeterOutcome = {
  inserted: number;
  duplicates: number;
  transactionId: number | null;
  /** The plausibility flags of the samples inserted, one entry per flagged sample (absent when none). */
  flags?: string[];
};

/** The samples of one message (MeterValues, or a stop's transactionData), attributed to `tx`. */
export type SampleGroup = {
  chargePointId: string;
  connectorId: number;
  claimedTransactionId: number | undefined;
  tx: TxRow | undefined;
  samples: NormalizedSample[];
  correlationId: string;
};

/** The highest accepted energy register reading stored before a reading to check, and when it was taken. */
export type StoredReading = { max: string | null; max_at: Date | null };
/** Stored history per reading to check (the sample object as normalised), read with the transactions. */
export type StoredHistory = Map<NormalizedSample, StoredReading>;

export type SampleCheckOptions = {
  /**
   * Highest power a pile can deliver (W): an energy register rising faster since the previous reading is
   * flagged as a jump (see energyRegisterFlag). Unset: no bound.
   */
  maxPlausiblePowerW?: number;
};

/** An energy register reading in Wh, the only kind the plausibility check looks at. */
export function isEnergyRegister(sample: NormalizedSample): boolean {
  return sample.measurand === ENERGY_REGISTER && sample.phase === '' && sample.unit === 'Wh';
}

/**
 * The highest accepted energy register reading of transaction `u.tx` at or before `u.ts`, for a LATERAL
 * join; `measurand` the parameter holding the energy register's measurand.
 */
export function highestReading(measurand: string): string {
  return `SELECT s.value, s.sampled_at FROM ocpp_meter_sample s
   WHERE s.transaction_id = u.tx AND s.measurand = ${measurand} AND s.phase = '' AND s.sampled_at <= u.ts
     AND s.value <> 'NaN' AND s.flag IS NULL
   ORDER BY s.value DESC, s.sampled_at DESC LIMIT 1`;
}

/**
 * Insert the samples of several messages in one statement (a retried sample, same business key, is
 * skipped) and announce what each message added. Energy register readings are checked against the
 * highest earlier reading of their transaction (stored or earlier in this batch) and flagged, never
 * dropped, when implausible. Used by the MeterValues writer and by the StopTransaction writer (a stop's
 * transactionData).
 */
export async function writeSampleGroups(
  manager: EntityManager,
  groups: SampleGroup[],
  options: SampleCheckOptions,
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
      : await readStoredHistory(manager, groups, candidates);
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
        options.maxPlausiblePowerW,
      );
      if (!candidate.flag) {
        earlier.push({ at: candidate.sample.sampledAt, value: candidate.sample.value });
        accepted.set(tx.transaction_id, earlier);
      }
    });
  }

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
          sample: publishedSample(r.sample, r.flag) ?? null,
          n: n + 1,
        };
      }),
    ),
    // One event per message; the statement skips a message none of whose samples was new.
    ...METER_VALUES_EVENTS.values(
      groups.map((group, i) => ({
        i,
        key: group.chargePointId,
        correlationId: group.correlationId,
        payload: meterValuesHead(group.chargePointId, group.connectorId, group.tx?.transaction_id),
      })),
    ),
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

/** For each candidate reading, the highest accepted one stored for its transaction at or before it. */
async function readStoredHistory(
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

/**
 * One MeterValuesReceived per message ($2, see writtenRowsOutboxInsert; $3-$5 its topic, type and
 * version), for the rows of it that `firsts` inserted and `announced` kept, grouped by message.
 */
const METER_VALUES_EVENTS = writtenRowsOutboxInsert(MeterValuesReceived, {
  param: 2,
  written: 'announced',
  completion: METER_VALUES_COMPLETION,
  occurredAt: METER_VALUES_OCCURRED_AT,
});

/**
 * The samples of a batch of messages and their events, in one statement (so one round trip, and atomic
 * without a transaction around it): insert the rows (a key stored already, or repeated within the batch,
 * is skipped), then add one outbox event per message for the rows of it that were inserted and can be
 * announced (`sample` not null, see publishedSample), samples in message order, occurring at the first of
 * them. Returns the batch positions (`pos`) of the rows
 * inserted. $1 the rows (JSON array): the columns, `grp` the message (group) index, `pos` the position,
 * `sample` the sample as the event carries it, `n` the row's place in insertion order; $2-$5 the events
 * (METER_VALUES_EVENTS).
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
    SELECT DISTINCT ON (r.charge_point_id, r.connector_id, r.sampled_at, r.measurand, r.phase, r.location, r.context)
           r.grp AS i, r.pos, r.sample, r.flag, r.sampled_at
      FROM inserted s
      JOIN input r USING (charge_point_id, connector_id, sampled_at, measurand, phase, location, context)
     ORDER BY r.charge_point_id, r.connector_id, r.sampled_at, r.measurand, r.phase, r.location, r.context, r.n
  ), announced AS (
    SELECT * FROM firsts WHERE sample IS NOT NULL
  ), ${METER_VALUES_EVENTS.ctes}
  SELECT pos FROM firsts`,
);
