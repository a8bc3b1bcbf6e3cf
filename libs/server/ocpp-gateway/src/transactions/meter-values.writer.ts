import type { EntityManager } from 'typeorm';
import { PreparedStatement } from '@voltdepot/server-database';
import type { MeterValuesRequest } from '@voltdepot/shared-ocpp';
import { ENERGY_REGISTER, normalizeMeterValues, type NormalizedSample } from './meter-sample';
import {
  highestReading,
  isEnergyRegister,
  writeSampleGroups,
  type MeterOutcome,
  type SampleCheckOptions,
  type StoredHistory,
} from './sample-groups';
import { meterAsNumber, type TxRow } from './transaction-row';

export type { MeterOutcome } from './sample-groups';

/** One MeterValues call, as the group-commit writer hands it over. */
export type MeterValuesItem = { chargePointId: string; req: MeterValuesRequest; correlationId: string };

/**
 * Writes MeterValues calls, set-based: one query attributes every call to its transaction and reads, for
 * each energy register reading to check, the highest accepted reading of that transaction before it (the
 * plausibility check's history); one statement inserts every sample and adds the events (see
 * writeSampleGroups). Only that last statement writes, so it needs no transaction around it (the meter
 * group commit runs it without one); inside a caller's transaction it is part of that. Same results, per
 * call, as recording the calls one after another; a retried sample (same business key) has no second
 * effect.
 */
export class MeterValuesWriter {
  constructor(private readonly options: SampleCheckOptions = {}) {}

  async write(manager: EntityManager, items: MeterValuesItem[]): Promise<MeterOutcome[]> {
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
    return writeSampleGroups(
      manager,
      items.map(({ chargePointId, req, correlationId }, i) => ({
        chargePointId,
        connectorId: req.connectorId,
        claimedTransactionId: req.transactionId,
        tx: txs[i],
        samples: samples[i],
        correlationId,
      })),
      this.options,
      history,
    );
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
}

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
