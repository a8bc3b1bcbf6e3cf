import type { DataSource, EntityManager } from 'typeorm';
import { createEnvelope, addToOutbox } from '@voltdepot/server-messaging';
import {
  MeterValuesReceived,
  TransactionStarted,
  TransactionStopped,
  type MeterSampleV1,
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
  normalizeMeterValues,
  type NormalizedSample,
} from './meter-sample';

export type StartOutcome = { transactionId: number; idTagStatus: AuthorizationStatus; created: boolean };
export type StopOutcome = { outcome: 'stopped' | 'already-stopped' | 'quarantined' | 'quarantined-again' };
export type MeterOutcome = { inserted: number; duplicates: number; transactionId: number | null };

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
export class TransactionRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findByStartKey(
    chargePointId: string,
    req: StartTransactionRequest,
  ): Promise<StartOutcome | undefined> {
    return this.findStart(this.dataSource.manager, chargePointId, req);
  }

  /** Record a start (idempotent on pile, connector, tag, timestamp, meterStart). */
  async start(
    chargePointId: string,
    req: StartTransactionRequest,
    idTagInfo: IdTagInfo,
    correlationId: string,
  ): Promise<StartOutcome> {
    return this.dataSource.transaction(async (manager) => {
      const inserted: { transaction_id: number }[] = await manager.query(
        `INSERT INTO ocpp_transaction (charge_point_id, connector_id, id_tag, id_tag_status, meter_start_wh, started_at, reservation_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT ON CONSTRAINT ocpp_transaction_start_key DO NOTHING
         RETURNING transaction_id`,
        [
          chargePointId,
          req.connectorId,
          req.idTag,
          idTagInfo.status,
          req.meterStart,
          req.timestamp,
          req.reservationId ?? null,
        ],
      );
      if (!inserted.length) {
        const existing = await this.findStart(manager, chargePointId, req);
        if (!existing) throw new Error('start transaction conflict without a row');
        return existing;
      }
      const transactionId = inserted[0].transaction_id;
      await addToOutbox(
        manager,
        createEnvelope(
          TransactionStarted,
          chargePointId,
          {
            chargePointId,
            connectorId: req.connectorId,
            transactionId,
            idTag: req.idTag,
            idTagStatus: idTagInfo.status,
            meterStartWh: req.meterStart,
            timestamp: new Date(req.timestamp).toISOString(),
            ...(req.reservationId !== undefined ? { reservationId: req.reservationId } : {}),
          },
          { correlationId, occurredAt: req.timestamp },
        ),
      );
      return { transactionId, idTagStatus: idTagInfo.status, created: true };
    });
  }

  /** Record meter values; samples already stored (same business key) are skipped. */
  async recordMeterValues(
    chargePointId: string,
    req: MeterValuesRequest,
    correlationId: string,
  ): Promise<MeterOutcome> {
    return this.dataSource.transaction(async (manager) => {
      const tx = await this.resolveTransaction(
        manager,
        chargePointId,
        req.connectorId,
        req.transactionId,
        req.meterValue[0]?.timestamp,
      );
      return this.insertSamples(
        manager,
        chargePointId,
        req.connectorId,
        req.transactionId,
        tx,
        normalizeMeterValues(req.meterValue),
        correlationId,
      );
    });
  }

  /**
   * Record a stop. An unknown transaction is quarantined (and announced as such) rather than refused:
   * the pile has already ended it and would otherwise retry forever.
   */
  async stop(
    chargePointId: string,
    req: StopTransactionRequest,
    correlationId: string,
  ): Promise<StopOutcome> {
    const { reason, stopKind } = stopKindOf(req.reason);
    return this.dataSource.transaction(async (manager) => {
      // TypeORM returns [rows, rowCount] for UPDATE ... RETURNING on PostgreSQL.
      const [stopped]: [TxRow[], number] = await manager.query(
        `UPDATE ocpp_transaction
            SET meter_stop_wh = $3, stopped_at = $4, stop_id_tag = $5, stop_reason = $6, stop_kind = $7
          WHERE transaction_id = $1 AND charge_point_id = $2 AND stopped_at IS NULL
          RETURNING transaction_id, connector_id, id_tag, id_tag_status, meter_start_wh, started_at`,
        [req.transactionId, chargePointId, req.meterStop, req.timestamp, req.idTag ?? null, reason, stopKind],
      );
      const timestamp = new Date(req.timestamp).toISOString();
      if (stopped.length) {
        const row = stopped[0];
        if (req.transactionData?.length) {
          await this.insertSamples(
            manager,
            chargePointId,
            row.connector_id,
            req.transactionId,
            row,
            normalizeMeterValues(req.transactionData),
            correlationId,
          );
        }
        await addToOutbox(
          manager,
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
            { correlationId, occurredAt: timestamp },
          ),
        );
        return { outcome: 'stopped' };
      }
      const known: unknown[] = await manager.query(
        'SELECT 1 FROM ocpp_transaction WHERE transaction_id = $1 AND charge_point_id = $2',
        [req.transactionId, chargePointId],
      );
      if (known.length) return { outcome: 'already-stopped' };
      const quarantined: unknown[] = await manager.query(
        `INSERT INTO ocpp_stop_quarantine (charge_point_id, transaction_id, id_tag, meter_stop_wh, stopped_at, reason, payload)
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)
         ON CONFLICT ON CONSTRAINT ocpp_stop_quarantine_key DO NOTHING RETURNING id`,
        [
          chargePointId,
          req.transactionId,
          req.idTag ?? null,
          req.meterStop,
          req.timestamp,
          reason,
          JSON.stringify(req),
        ],
      );
      if (!quarantined.length) return { outcome: 'quarantined-again' };
      await addToOutbox(
        manager,
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
          { correlationId, occurredAt: timestamp },
        ),
      );
      return { outcome: 'quarantined' };
    });
  }

  private async findStart(
    manager: EntityManager,
    chargePointId: string,
    req: StartTransactionRequest,
  ): Promise<StartOutcome | undefined> {
    const rows: TxRow[] = await manager.query(
      `SELECT transaction_id, id_tag_status FROM ocpp_transaction
        WHERE charge_point_id = $1 AND connector_id = $2 AND id_tag = $3 AND started_at = $4 AND meter_start_wh = $5`,
      [chargePointId, req.connectorId, req.idTag, req.timestamp, req.meterStart],
    );
    return (
      rows[0] && { transactionId: rows[0].transaction_id, idTagStatus: rows[0].id_tag_status, created: false }
    );
  }

  /** The transaction meter values belong to: the one named, or the connector's open one. */
  private async resolveTransaction(
    manager: EntityManager,
    chargePointId: string,
    connectorId: number,
    transactionId: number | undefined,
    firstTimestamp: string | undefined,
  ): Promise<TxRow | undefined> {
    if (transactionId !== undefined) {
      const rows: TxRow[] = await manager.query(
        'SELECT transaction_id, connector_id, id_tag, meter_start_wh, started_at FROM ocpp_transaction WHERE transaction_id = $1 AND charge_point_id = $2',
        [transactionId, chargePointId],
      );
      return rows[0];
    }
    if (connectorId === 0 || !firstTimestamp) return undefined;
    const rows: TxRow[] = await manager.query(
      `SELECT transaction_id, connector_id, id_tag, meter_start_wh, started_at FROM ocpp_transaction
        WHERE charge_point_id = $1 AND connector_id = $2 AND stopped_at IS NULL AND started_at <= $3
        ORDER BY started_at DESC LIMIT 1`,
      [chargePointId, connectorId, firstTimestamp],
    );
    return rows[0];
  }

  private async insertSamples(
    manager: EntityManager,
    chargePointId: string,
    connectorId: number,
    claimedTransactionId: number | undefined,
    tx: TxRow | undefined,
    samples: NormalizedSample[],
    correlationId: string,
  ): Promise<MeterOutcome> {
    const published: MeterSampleV1[] = [];
    let duplicates = 0;
    for (const sample of samples) {
      let flag = sample.flag;
      if (!flag && claimedTransactionId !== undefined && !tx) flag = 'unknown-transaction';
      if (
        !flag &&
        tx &&
        sample.measurand === ENERGY_REGISTER &&
        sample.phase === '' &&
        sample.unit === 'Wh'
      ) {
        const [{ max }]: { max: string | null }[] = await manager.query(
          `SELECT max(value) AS max FROM ocpp_meter_sample
            WHERE transaction_id = $1 AND measurand = $2 AND phase = '' AND sampled_at <= $3 AND value <> 'NaN' AND flag IS NULL`,
          [tx.transaction_id, ENERGY_REGISTER, sample.sampledAt],
        );
        const previous = Math.max(tx.meter_start_wh, max === null ? Number.NEGATIVE_INFINITY : Number(max));
        flag = energyRegisterFlag(sample.value, previous);
      }
      const inserted: unknown[] = await manager.query(
        `INSERT INTO ocpp_meter_sample (charge_point_id, connector_id, transaction_id, sampled_at, measurand, phase, location, context, value, unit, flag)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT ON CONSTRAINT ocpp_meter_sample_key DO NOTHING RETURNING id`,
        [
          chargePointId,
          connectorId,
          tx?.transaction_id ?? null,
          sample.sampledAt,
          sample.measurand,
          sample.phase,
          sample.location,
          sample.context,
          Number.isNaN(sample.value) ? 'NaN' : String(sample.value),
          sample.unit ?? null,
          flag ?? null,
        ],
      );
      if (!inserted.length) {
        duplicates++;
        continue;
      }
      published.push({
        timestamp: sample.sampledAt,
        measurand: sample.measurand,
        value: sample.value,
        ...(sample.unit ? { unit: sample.unit } : {}),
        ...(sample.phase ? { phase: sample.phase } : {}),
        ...(sample.location ? { location: sample.location } : {}),
        ...(sample.context ? { context: sample.context } : {}),
        ...(flag ? { flag } : {}),
      });
    }
    if (published.length) {
      await addToOutbox(
        manager,
        createEnvelope(
          MeterValuesReceived,
          chargePointId,
          {
            chargePointId,
            connectorId,
            ...(tx ? { transactionId: tx.transaction_id } : {}),
            samples: published,
            flagged: published.some((s) => s.flag !== undefined),
          },
          { correlationId, occurredAt: published[0].timestamp },
        ),
      );
    }
    return { inserted: published.length, duplicates, transactionId: tx?.transaction_id ?? null };
  }
}
