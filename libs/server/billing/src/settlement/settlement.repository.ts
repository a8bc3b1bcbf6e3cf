import type { EntityManager } from 'typeorm';
import type { TransactionStoppedV1 } from '@voltdepot/shared-events';
import type { PricePlan, PricePlanStage, StageType } from '../pricing/price-plan';
import type { SessionPrice } from '../pricing/session-pricing';

export type BillingSessionRow = {
  chargePointId: string;
  transactionId: number;
  connectorId: number;
  idTag: string;
  meterStartWh: number;
  startedAt: Date;
};

export type Reading = { measurand: string; at: Date; value: number; flag: string | null };

export type OrderRecord = {
  orderNo: string;
  stop: TransactionStoppedV1;
  session?: BillingSessionRow;
  startSoc?: number;
  endSoc?: number;
  price?: SessionPrice;
  pricePlanId?: number;
  payStatus: 0 | 1 | 3;
  abnormalReasons: string[];
  energyWh: number;
};

const BAND_COLUMNS: Record<StageType, string> = {
  sharp: 'sharp',
  peak: 'peak',
  normal: 'normal',
  valley: 'valley',
  deepValley: 'deep_valley',
};

/** The only place the billing area touches the database. Every write is idempotent by business key. */
export class SettlementRepository {
  async recordStart(m: EntityManager, s: BillingSessionRow): Promise<void> {
    await m.query(
      `INSERT INTO billing_session (charge_point_id, transaction_id, connector_id, id_tag, meter_start_wh, started_at)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
      [s.chargePointId, s.transactionId, s.connectorId, s.idTag, s.meterStartWh, s.startedAt],
    );
  }

  async findSession(
    m: EntityManager,
    chargePointId: string,
    transactionId: number,
  ): Promise<BillingSessionRow | undefined> {
    const rows = await m.query(
      `SELECT charge_point_id, transaction_id, connector_id, id_tag, meter_start_wh, started_at
         FROM billing_session WHERE charge_point_id = $1 AND transaction_id = $2`,
      [chargePointId, transactionId],
    );
    if (!rows.length) return undefined;
    const r = rows[0];
    return {
      chargePointId: r.charge_point_id,
      transactionId: r.transaction_id,
      connectorId: r.connector_id,
      idTag: r.id_tag,
      meterStartWh: Number(r.meter_start_wh),
      startedAt: new Date(r.started_at),
    };
  }

  async recordReadings(
    m: EntityManager,
    chargePointId: string,
    transactionId: number,
    readings: Reading[],
  ): Promise<void> {
    if (!readings.length) return;
    const values: unknown[] = [];
    const rows = readings.map((r, i) => {
      values.push(chargePointId, transactionId, r.measurand, r.at, r.value, r.flag);
      const o = i * 6;
      return `($${o + 1}, $${o + 2}, $${o + 3}, $${o + 4}, $${o + 5}, $${o + 6})`;
    });
    await m.query(
      `INSERT INTO billing_reading (charge_point_id, transaction_id, measurand, at, value, flag)
       VALUES ${rows.join(', ')} ON CONFLICT DO NOTHING`,
      values,
    );
  }

  async readings(m: EntityManager, chargePointId: string, transactionId: number): Promise<Reading[]> {
    const rows = await m.query(
      `SELECT measurand, at, value, flag FROM billing_reading
        WHERE charge_point_id = $1 AND transaction_id = $2 ORDER BY at`,
      [chargePointId, transactionId],
    );
    return rows.map((r: { measurand: string; at: Date; value: string; flag: string | null }) => ({
      measurand: r.measurand,
      at: new Date(r.at),
      value: Number(r.value),
      flag: r.flag,
    }));
  }

  async parkStop(m: EntityManager, stop: TransactionStoppedV1): Promise<void> {
    await m.query(
      `INSERT INTO billing_pending_stop (charge_point_id, transaction_id, payload) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT DO NOTHING`,
      [stop.chargePointId, stop.transactionId, JSON.stringify(stop)],
    );
  }

  async takeParkedStop(
    m: EntityManager,
    chargePointId: string,
    transactionId: number,
  ): Promise<TransactionStoppedV1 | undefined> {
    const rows = await m.query(
      `DELETE FROM billing_pending_stop WHERE charge_point_id = $1 AND transaction_id = $2 RETURNING payload`,
      [chargePointId, transactionId],
    );
    // TypeORM answers DELETE ... RETURNING with [rows, affectedCount].
    const returned = Array.isArray(rows[0]) ? rows[0] : rows;
    return returned[0]?.payload;
  }

  async orderExists(m: EntityManager, chargePointId: string, transactionId: number): Promise<boolean> {
    const rows = await m.query(
      `SELECT 1 FROM charging_order WHERE charge_point_id = $1 AND transaction_id = $2`,
      [chargePointId, transactionId],
    );
    return rows.length > 0;
  }

  /** The plan in force for a station at an instant, else the default plan. */
  async pricePlanAt(
    m: EntityManager,
    stationId: number | undefined,
    at: Date,
  ): Promise<{ id: number; plan: PricePlan } | undefined> {
    const rows = await m.query(
      `SELECT p.id FROM price_plan p
        WHERE p.id = COALESCE(
          (SELECT plan_id FROM station_price_plan WHERE station_id = $1 AND effective_from <= $2
            ORDER BY effective_from DESC LIMIT 1),
          (SELECT id FROM price_plan WHERE is_default))`,
      [stationId ?? null, at],
    );
    if (!rows.length) return undefined;
    const id = rows[0].id as number;
    const stages = await m.query(
      `SELECT stage_type, start_minute, end_minute, electricity_price, service_fee
         FROM price_plan_stage WHERE plan_id = $1 ORDER BY seq`,
      [id],
    );
    return {
      id,
      plan: {
        stages: stages.map((s: Record<string, unknown>): PricePlanStage => ({
          stageType: s['stage_type'] as StageType,
          startMinute: Number(s['start_minute']),
          endMinute: Number(s['end_minute']),
          electricityPrice: Number(s['electricity_price']),
          serviceFee: Number(s['service_fee']),
        })),
      },
    };
  }

  /** Insert the order once; a replayed settlement finds the existing row and changes nothing. */
  async insertOrder(m: EntityManager, o: OrderRecord): Promise<boolean> {
    const bandColumns: string[] = [];
    const bandValues: number[] = [];
    for (const [type, column] of Object.entries(BAND_COLUMNS) as [StageType, string][]) {
      const band = o.price?.bands[type] ?? { energyWh: 0, electricityFen: 0, serviceFen: 0 };
      bandColumns.push(`${column}_energy_wh`, `${column}_electricity_fen`, `${column}_service_fen`);
      bandValues.push(band.energyWh, band.electricityFen, band.serviceFen);
    }
    const base = [
      o.orderNo,
      o.stop.chargePointId,
      o.stop.connectorId,
      o.stop.transactionId,
      o.session?.idTag ?? o.stop.idTag ?? null,
      o.session?.startedAt ?? null,
      new Date(o.stop.timestamp),
      o.session?.meterStartWh ?? o.stop.meterStartWh ?? null,
      o.stop.meterStopWh,
      o.energyWh,
      o.startSoc ?? null,
      o.endSoc ?? null,
      o.price?.electricityFen ?? 0,
      o.price?.serviceFen ?? 0,
      o.price?.totalFen ?? 0,
      o.pricePlanId ?? null,
      o.stop.reason,
      o.stop.stopKind,
      o.payStatus,
      o.abnormalReasons,
    ];
    const columns = [
      'order_no',
      'charge_point_id',
      'connector_id',
      'transaction_id',
      'id_tag',
      'started_at',
      'stopped_at',
      'meter_start_wh',
      'meter_stop_wh',
      'energy_wh',
      'start_soc',
      'end_soc',
      'electricity_fen',
      'service_fen',
      'total_fen',
      'price_plan_id',
      'end_reason',
      'stop_kind',
      'pay_status',
      'abnormal_reasons',
      ...bandColumns,
    ];
    const values = [...base, ...bandValues];
    const rows = await m.query(
      `INSERT INTO charging_order (${columns.join(', ')})
       VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})
       ON CONFLICT (charge_point_id, transaction_id) DO NOTHING RETURNING id`,
      values,
    );
    return rows.length > 0;
  }
}
