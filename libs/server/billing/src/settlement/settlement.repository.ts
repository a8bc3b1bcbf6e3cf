import type { EntityManager } from 'typeorm';
import type { TransactionStoppedV1 } from '@voltdepot/shared-events';
import type { PricePlan, PricePlanStage, StageType } from '../pricing/price-plan';
import type { Discount, DiscountedPrice } from '../pricing/discount';
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
  /** Set when a discount plan applied: the payable amounts (bands and totals) after the discount. */
  discounted?: DiscountedPrice & { planId: number };
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

export type SettlementInputs = {
  session?: BillingSessionRow;
  settled: boolean;
  readings: Reading[];
  plan?: { id: number; version: string };
  /** The enabled discount plan covering the session's card at its start, if any. */
  discount?: Discount;
};

/** The only place the billing area touches the database. Every write is idempotent by business key. */
export class SettlementRepository {
  private readonly planCache = new Map<string, PricePlan>();

  /**
   * Record a start and take the stop that overtook it, if any, in one statement (one round trip on
   * the hot path). TypeORM answers DELETE ... RETURNING with [rows, affectedCount].
   */
  async recordStart(m: EntityManager, s: BillingSessionRow): Promise<TransactionStoppedV1 | undefined> {
    const result = await m.query(
      `WITH started AS (
         INSERT INTO billing_session (charge_point_id, transaction_id, connector_id, id_tag, meter_start_wh, started_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING)
       DELETE FROM billing_pending_stop WHERE charge_point_id = $1 AND transaction_id = $2 RETURNING payload`,
      [s.chargePointId, s.transactionId, s.connectorId, s.idTag, s.meterStartWh, s.startedAt],
    );
    const returned = Array.isArray(result[0]) ? result[0] : result;
    return returned[0]?.payload;
  }

  /**
   * Everything settling a stop needs, in one round trip: the session, whether it is already settled,
   * its readings in time order, and which price plan (id and version) was in force at its start.
   */
  async settlementInputs(
    m: EntityManager,
    chargePointId: string,
    transactionId: number,
    stationId: number | undefined,
  ): Promise<SettlementInputs> {
    const [row] = await m.query(
      `WITH s AS (
         SELECT connector_id, id_tag, meter_start_wh, started_at FROM billing_session
          WHERE charge_point_id = $1 AND transaction_id = $2)
       SELECT
         (SELECT row_to_json(s) FROM s) AS session,
         EXISTS (SELECT 1 FROM charging_order WHERE charge_point_id = $1 AND transaction_id = $2) AS settled,
         (SELECT coalesce(json_agg(json_build_object('m', measurand, 'at', at, 'v', value, 'f', flag) ORDER BY at), '[]')
            FROM billing_reading WHERE charge_point_id = $1 AND transaction_id = $2) AS readings,
         (SELECT json_build_object('id', p.id, 'version', p.updated_at) FROM price_plan p
           WHERE p.id = COALESCE(
             (SELECT plan_id FROM station_price_plan
               WHERE station_id = $3 AND effective_from <= (SELECT started_at FROM s)
               ORDER BY effective_from DESC LIMIT 1),
             (SELECT id FROM price_plan WHERE is_default))) AS plan,
         (SELECT json_build_object('id', d.id, 'price', d.price_discount, 'service', d.service_fee_discount)
            FROM discount_plan d JOIN discount_plan_card c ON c.plan_id = d.id
           WHERE c.id_tag = (SELECT id_tag FROM s) AND d.enabled
             AND d.valid_from <= (SELECT started_at FROM s) AND (SELECT started_at FROM s) < d.valid_to
           ORDER BY d.valid_from DESC, d.id DESC LIMIT 1) AS discount`,
      [chargePointId, transactionId, stationId ?? null],
    );
    const s = row.session as Record<string, unknown> | null;
    return {
      session: s
        ? {
            chargePointId,
            transactionId,
            connectorId: Number(s['connector_id']),
            idTag: String(s['id_tag']),
            meterStartWh: Number(s['meter_start_wh']),
            startedAt: new Date(String(s['started_at'])),
          }
        : undefined,
      settled: row.settled === true,
      readings: (row.readings as { m: string; at: string; v: number | string; f: string | null }[]).map(
        (r) => ({
          measurand: r.m,
          at: new Date(r.at),
          value: Number(r.v),
          flag: r.f,
        }),
      ),
      plan: row.plan ? { id: Number(row.plan.id), version: String(row.plan.version) } : undefined,
      discount: row.discount
        ? {
            planId: Number(row.discount.id),
            pricePercent: Number(row.discount.price),
            servicePercent: Number(row.discount.service),
          }
        : undefined,
    };
  }

  /**
   * A plan's stages, cached by (id, version): saving a plan bumps `updated_at` in the transaction that
   * replaces its stages, so a cached version is never stale. The stages are read together with the
   * version they belong to, so a concurrent edit cannot file new stages under an old version.
   */
  async planStages(m: EntityManager, ref: { id: number; version: string }): Promise<PricePlan | undefined> {
    const key = `${ref.id}@${ref.version}`;
    const cached = this.planCache.get(key);
    if (cached) return cached;
    const rows = await m.query(
      `SELECT p.updated_at AS version, s.stage_type, s.start_minute, s.end_minute, s.electricity_price, s.service_fee
         FROM price_plan p JOIN price_plan_stage s ON s.plan_id = p.id
        WHERE p.id = $1 ORDER BY s.seq`,
      [ref.id],
    );
    if (!rows.length) return undefined;
    const plan: PricePlan = {
      stages: rows.map((s: Record<string, unknown>): PricePlanStage => ({
        stageType: s['stage_type'] as StageType,
        startMinute: Number(s['start_minute']),
        endMinute: Number(s['end_minute']),
        electricityPrice: Number(s['electricity_price']),
        serviceFee: Number(s['service_fee']),
      })),
    };
    const version = new Date(rows[0].version).getTime();
    if (version === new Date(ref.version).getTime()) {
      if (this.planCache.size > 256) this.planCache.clear();
      this.planCache.set(key, plan);
    }
    return plan;
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

  async parkStop(m: EntityManager, stop: TransactionStoppedV1): Promise<void> {
    await m.query(
      `INSERT INTO billing_pending_stop (charge_point_id, transaction_id, payload) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT DO NOTHING`,
      [stop.chargePointId, stop.transactionId, JSON.stringify(stop)],
    );
  }

  /** Insert the order once; a replayed settlement finds the existing row and changes nothing. */
  async insertOrder(m: EntityManager, o: OrderRecord): Promise<boolean> {
    const bandColumns: string[] = [];
    const bandValues: number[] = [];
    for (const [type, column] of Object.entries(BAND_COLUMNS) as [StageType, string][]) {
      const band = (o.discounted ?? o.price)?.bands[type] ?? {
        energyWh: 0,
        electricityFen: 0,
        serviceFen: 0,
      };
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
      (o.discounted ?? o.price)?.electricityFen ?? 0,
      (o.discounted ?? o.price)?.serviceFen ?? 0,
      (o.discounted ?? o.price)?.totalFen ?? 0,
      o.pricePlanId ?? null,
      o.discounted?.planId ?? null,
      o.discounted?.electricityDiscountFen ?? 0,
      o.discounted?.serviceDiscountFen ?? 0,
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
      'discount_plan_id',
      'electricity_discount_fen',
      'service_discount_fen',
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
