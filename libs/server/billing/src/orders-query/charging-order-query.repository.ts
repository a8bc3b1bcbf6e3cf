import type { DataSource } from 'typeorm';
import type {
  AbnormalReasonCode,
  OrderStatusCode,
  OrderVersionKind,
  PayStatusCode,
  ReviewDecision,
  ReviewStatusCode,
  StageTypeCode,
  StartTypeCode,
} from '@voltdepot/shared-contracts';
import type { StageType } from '../pricing/price-plan';
import { inScope, type BillingDataScope } from '../shared/data-scope';
import { keysetRows } from '../shared/keyset';
import { containing } from '../shared/query-params';
import { BAND_COLUMNS, numOrNull, scopedWhere, textOrNull } from '../shared/sql-rows';
import type {
  OrderQuery,
  ChargingOrderRow,
  ChargingOrderTotals,
  OrderFilterOptions,
} from './dto/order-query.dto';

/** Order status (spec §4) from the pay status and the review of a held order. */
const ORDER_STATUS_SQL = `CASE WHEN o.pay_status = 1 THEN 'paid'
                               WHEN o.pay_status = 0 THEN 'unpaid'
                               WHEN r.decision = 'reject' THEN 'unsettled'
                               ELSE 'abnormal' END`;
const REVIEW_STATUS_SQL = `CASE WHEN cardinality(o.abnormal_reasons) = 0 THEN NULL
                                WHEN r.decision IS NULL THEN 'pending'
                                WHEN r.decision = 'approve' THEN 'audited'
                                ELSE 'rejected' END`;

/**
 * An order with the names of where and with what it charged. Piles are matched by charge point id,
 * guns by channel number, cards by physical number (the OCPP idTag). The vehicle is the one stored on
 * the order at settlement (its card's bus, else the one whose VIN, else plate, was the idTag), so
 * re-binding a card later does not change old orders. The occupation order of the same session shares
 * the order's key (charge point, transaction).
 */
const FROM = `
  FROM charging_order o
  LEFT JOIN assets_pile_v p ON p.charge_point_id = o.charge_point_id
  LEFT JOIN assets_station_v s ON s.id = p.station_id
  LEFT JOIN assets_gun_v g ON g.pile_id = p.id AND g.channel_number = o.connector_id
  LEFT JOIN assets_card_v c ON c.physical_number = o.id_tag
  LEFT JOIN occupation_order oc ON oc.charge_point_id = o.charge_point_id AND oc.transaction_id = o.transaction_id
  LEFT JOIN charging_order_review r ON r.order_id = o.id`;

const ROW_COLUMNS = `o.id, o.order_no, o.charge_point_id, o.connector_id, o.transaction_id,
  p.station_id, s.name AS station_name, p.id AS pile_id, p.name AS pile_name, g.id AS gun_id, g.name AS gun_name,
  o.id_tag, c.self_number AS card_self_number, o.vehicle_id, o.vehicle_plate, o.vehicle_vin,
  o.started_at, o.stopped_at, o.energy_wh, o.start_soc, o.end_soc, o.electricity_fen, o.service_fen, o.total_fen,
  o.electricity_discount_fen + o.service_discount_fen AS discount_fen, o.pay_status,
  ${ORDER_STATUS_SQL} AS order_status, ${REVIEW_STATUS_SQL} AS review_status,
  o.abnormal_reasons, o.end_reason, o.stop_kind, o.start_mode, o.settled_at, o.version,
  oc.id AS occupation_order_id, oc.order_no AS occupation_order_no, oc.amount_fen AS occupation_fee_fen`;

export type RawRow = Record<string, unknown>;

const num = (v: unknown): number => Number(v);
const iso = (v: unknown): string => new Date(v as string).toISOString();

export function toOrderRow(r: RawRow): ChargingOrderRow {
  const startedAt = r['started_at'] ? iso(r['started_at']) : null;
  const stoppedAt = iso(r['stopped_at']);
  return {
    id: num(r['id']),
    orderNo: String(r['order_no']),
    chargePointId: String(r['charge_point_id']),
    connectorId: num(r['connector_id']),
    transactionId: num(r['transaction_id']),
    stationId: numOrNull(r['station_id']),
    stationName: textOrNull(r['station_name']),
    pileId: numOrNull(r['pile_id']),
    pileName: textOrNull(r['pile_name']),
    gunId: numOrNull(r['gun_id']),
    gunName: textOrNull(r['gun_name']),
    idTag: textOrNull(r['id_tag']),
    cardSelfNumber: textOrNull(r['card_self_number']),
    vehicleId: numOrNull(r['vehicle_id']),
    vehiclePlate: textOrNull(r['vehicle_plate']),
    vehicleVin: textOrNull(r['vehicle_vin']),
    startedAt,
    stoppedAt,
    durationSeconds: startedAt
      ? Math.max(0, Math.round((Date.parse(stoppedAt) - Date.parse(startedAt)) / 1000))
      : null,
    energyWh: num(r['energy_wh']),
    startSoc: numOrNull(r['start_soc']),
    endSoc: numOrNull(r['end_soc']),
    electricityFen: num(r['electricity_fen']),
    serviceFen: num(r['service_fen']),
    totalFen: num(r['total_fen']),
    discountFen: num(r['discount_fen']),
    payStatus: num(r['pay_status']) as PayStatusCode,
    orderStatus: String(r['order_status']) as OrderStatusCode,
    reviewStatus: (r['review_status'] ?? null) as ReviewStatusCode | null,
    abnormalReasons: (r['abnormal_reasons'] as AbnormalReasonCode[] | null) ?? [],
    endReason: String(r['end_reason']),
    stopKind: r['stop_kind'] === 'abnormal' ? 'abnormal' : 'normal',
    startMode: num(r['start_mode'] ?? 0) as StartTypeCode,
    settledAt: iso(r['settled_at']),
    version: num(r['version']),
    occupationOrderId: numOrNull(r['occupation_order_id']),
    occupationOrderNo: textOrNull(r['occupation_order_no']),
    occupationFeeFen: numOrNull(r['occupation_fee_fen']),
  };
}

/** The figures of an order version as stored (`charging_order_version.before` / `after`). */
export type VersionFigures = {
  meterStopWh: number;
  energyWh: number;
  payStatus: PayStatusCode;
  abnormalReasons: AbnormalReasonCode[];
  amounts: { electricityFen: number; serviceFen: number; totalFen: number };
};

/** A later version of an order (2 and up), as the detail shows it. */
export type OrderVersionEntry = {
  version: number;
  kind: OrderVersionKind;
  reason: string;
  by: string;
  at: Date;
  before: VersionFigures;
  after: VersionFigures;
};

/** A second StopTransaction of the order's transaction. */
export type RepeatStopEntry = {
  stoppedAt: string;
  meterStopWh: number;
  reason: string;
  disagrees: boolean;
  receivedAt: string;
};

/** The organisation of an order's pile: its station's, else its own. */
const PILE_ORGANIZATION = 'COALESCE(s.organization_id, p.organization_id)';

function whereOf(q: OrderQuery, scope: BillingDataScope): { sql: string; params: unknown[] } {
  // The caller's data scope is always $1.
  const where = scopedWhere(PILE_ORGANIZATION, scope);
  const add = where.add;
  if (q.start) add((p) => `o.stopped_at >= ${p}`, q.start);
  if (q.end) add((p) => `o.stopped_at <= ${p}`, q.end);
  if (q.stationId !== undefined) add((p) => `p.station_id = ${p}`, q.stationId);
  if (q.pileId !== undefined) add((p) => `p.id = ${p}`, q.pileId);
  if (q.gunId !== undefined) add((p) => `g.id = ${p}`, q.gunId);
  if (q.vehicle)
    add((p) => `(o.vehicle_plate ILIKE ${p} OR o.vehicle_vin ILIKE ${p})`, containing(q.vehicle));
  if (q.card) add((p) => `(o.id_tag ILIKE ${p} OR c.self_number ILIKE ${p})`, containing(q.card));
  if (q.orderNo) add((p) => `o.order_no ILIKE ${p}`, containing(q.orderNo));
  if (q.payStatus !== undefined) add((p) => `o.pay_status = ${p}`, q.payStatus);
  if (q.orderStatus) add((p) => `(${ORDER_STATUS_SQL}) = ${p}`, q.orderStatus);
  if (q.held === true) where.require('cardinality(o.abnormal_reasons) > 0');
  if (q.held === false) where.require('cardinality(o.abnormal_reasons) = 0');
  if (q.reviewStatus) add((p) => `(${REVIEW_STATUS_SQL}) = ${p}`, q.reviewStatus);
  if (q.abnormalReason) add((p) => `${p} = ANY (o.abnormal_reasons)`, q.abnormalReason);
  return { sql: where.sql, params: where.params };
}

/**
 * Reads of the order screens (lists, totals, detail, filter options): the only file of the order
 * console's reads that touches the database (its writes are order-review's).
 */
export class ChargingOrderQueryRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(
    q: OrderQuery,
    scope: BillingDataScope,
    page: number,
    size: number,
  ): Promise<{ rows: ChargingOrderRow[]; total: number; totals: ChargingOrderTotals }> {
    const where = whereOf(q, scope);
    const [totals] = await this.dataSource.query(
      `SELECT count(*)::int AS count, coalesce(sum(o.energy_wh), 0) AS energy_wh,
              coalesce(sum(o.electricity_fen), 0) AS electricity_fen, coalesce(sum(o.service_fen), 0) AS service_fen,
              coalesce(sum(o.total_fen), 0) AS total_fen,
              coalesce(sum(o.electricity_discount_fen + o.service_discount_fen), 0) AS discount_fen
         ${FROM} ${where.sql}`,
      where.params,
    );
    const n = where.params.length;
    const rows = await this.dataSource.query(
      `SELECT ${ROW_COLUMNS} ${FROM} ${where.sql} ORDER BY o.stopped_at DESC, o.id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...where.params, size, (page - 1) * size],
    );
    return {
      rows: rows.map(toOrderRow),
      total: Number(totals.count),
      totals: {
        count: Number(totals.count),
        energyWh: Number(totals.energy_wh),
        electricityFen: Number(totals.electricity_fen),
        serviceFen: Number(totals.service_fen),
        totalFen: Number(totals.total_fen),
        discountFen: Number(totals.discount_fen),
      },
    };
  }

  /**
   * Count, energy and amount of the orders of the scope that stopped in [from, to): the figures of a
   * business day (the order query's totals over the same period, counted the same way).
   */
  async figuresStoppedIn(
    scope: BillingDataScope,
    from: Date,
    to: Date,
  ): Promise<{ count: number; energyWh: number; totalFen: number }> {
    const where = scopedWhere(PILE_ORGANIZATION, scope);
    where.add((p) => `o.stopped_at >= ${p}`, from);
    where.add((p) => `o.stopped_at < ${p}`, to);
    const [row] = (await this.dataSource.query(
      `SELECT count(*)::int AS count, coalesce(sum(o.energy_wh), 0) AS energy_wh,
              coalesce(sum(o.total_fen), 0) AS total_fen
         FROM charging_order o
         LEFT JOIN assets_pile_v p ON p.charge_point_id = o.charge_point_id
         LEFT JOIN assets_station_v s ON s.id = p.station_id
        ${where.sql}`,
      where.params,
    )) as { count: number; energy_wh: string | number; total_fen: string | number }[];
    return { count: Number(row.count), energyWh: Number(row.energy_wh), totalFen: Number(row.total_fen) };
  }

  /** One order with everything its detail page shows, or undefined. */
  async detail(
    id: number,
    scope: BillingDataScope,
  ): Promise<
    | {
        row: ChargingOrderRow;
        raw: RawRow;
        session?: { idTag: string; meterStartWh: number; startedAt: Date };
        readings: { measurand: string; at: Date; value: number; flag: string | null }[];
        review?: { decision: ReviewDecision; reason: string; reviewer: string; at: Date };
        versions: OrderVersionEntry[];
        repeatStops: RepeatStopEntry[];
      }
    | undefined
  > {
    const bandColumns = Object.values(BAND_COLUMNS)
      .map((c) => `o.${c}_energy_wh, o.${c}_electricity_fen, o.${c}_service_fen`)
      .join(', ');
    const [raw] = await this.dataSource.query(
      `SELECT ${ROW_COLUMNS}, o.meter_start_wh, o.meter_stop_wh, o.abandon_rule, o.price_plan_id, pp.name AS price_plan_name,
              o.discount_plan_id, dp.name AS discount_plan_name, o.electricity_discount_fen, o.service_discount_fen,
              ${bandColumns},
              r.decision AS review_decision, r.reason AS review_reason, r.reviewer_name, r.reviewed_at,
              (SELECT row_to_json(b) FROM (SELECT id_tag, meter_start_wh, started_at FROM billing_session
                 WHERE charge_point_id = o.charge_point_id AND transaction_id = o.transaction_id) b) AS session,
              (SELECT coalesce(json_agg(json_build_object('m', measurand, 'at', at, 'v', value, 'f', flag) ORDER BY at), '[]')
                 FROM billing_reading WHERE charge_point_id = o.charge_point_id AND transaction_id = o.transaction_id) AS readings,
              (SELECT coalesce(json_agg(json_build_object('version', v.version, 'kind', v.kind, 'reason', v.reason,
                        'by', v.actor_name, 'at', v.created_at, 'before', v.before, 'after', v.after) ORDER BY v.version), '[]')
                 FROM charging_order_version v WHERE v.order_id = o.id) AS versions,
              (SELECT coalesce(json_agg(json_build_object('at', x.stopped_at, 'meterStopWh', x.meter_stop_wh,
                        'reason', x.reason, 'disagrees', x.disagrees, 'receivedAt', x.received_at)
                        ORDER BY x.received_at, x.stopped_at), '[]')
                 FROM billing_repeat_stop x
                WHERE x.charge_point_id = o.charge_point_id AND x.transaction_id = o.transaction_id) AS repeat_stops
         ${FROM}
         LEFT JOIN price_plan pp ON pp.id = o.price_plan_id
         LEFT JOIN discount_plan dp ON dp.id = o.discount_plan_id
        WHERE o.id = $2 AND ${inScope(PILE_ORGANIZATION, 1)}`,
      [scope.pathPatterns, id],
    );
    if (!raw) return undefined;
    const session = raw.session as RawRow | null;
    return {
      row: toOrderRow(raw),
      raw,
      session: session
        ? {
            idTag: String(session['id_tag']),
            meterStartWh: Number(session['meter_start_wh']),
            startedAt: new Date(String(session['started_at'])),
          }
        : undefined,
      readings: (raw.readings as { m: string; at: string; v: number | string; f: string | null }[]).map(
        (r) => ({
          measurand: r.m,
          at: new Date(r.at),
          value: Number(r.v),
          flag: r.f,
        }),
      ),
      review: raw.review_decision
        ? {
            decision: raw.review_decision as ReviewDecision,
            reason: String(raw.review_reason),
            reviewer: String(raw.reviewer_name),
            at: new Date(raw.reviewed_at as string),
          }
        : undefined,
      versions: (raw.versions as Record<string, unknown>[]).map((v) => ({
        version: Number(v['version']),
        kind: v['kind'] as OrderVersionEntry['kind'],
        reason: String(v['reason']),
        by: String(v['by']),
        at: new Date(v['at'] as string),
        before: v['before'] as VersionFigures,
        after: v['after'] as VersionFigures,
      })),
      repeatStops: (raw.repeat_stops as Record<string, unknown>[]).map((x) => ({
        stoppedAt: iso(x['at']),
        meterStopWh: Number(x['meterStopWh']),
        reason: String(x['reason']),
        disagrees: x['disagrees'] === true,
        receivedAt: iso(x['receivedAt']),
      })),
    };
  }

  /** Band amounts of a detail row. */
  static bandsOf(
    raw: RawRow,
  ): { stageType: StageTypeCode; energyWh: number; electricityFen: number; serviceFen: number }[] {
    return (Object.entries(BAND_COLUMNS) as [StageType, string][]).map(([stageType, c]) => ({
      stageType,
      energyWh: Number(raw[`${c}_energy_wh`]),
      electricityFen: Number(raw[`${c}_electricity_fen`]),
      serviceFen: Number(raw[`${c}_service_fen`]),
    }));
  }

  async filterOptions(scope: BillingDataScope): Promise<OrderFilterOptions> {
    const [stations, piles, guns] = await Promise.all([
      this.dataSource.query(
        `SELECT id, name FROM assets_station_v WHERE ${inScope('organization_id', 1)} ORDER BY name, id`,
        [scope.pathPatterns],
      ),
      this.dataSource.query(
        `SELECT p.id, p.name, p.station_id, p.charge_point_id FROM assets_pile_v p
           LEFT JOIN assets_station_v s ON s.id = p.station_id
          WHERE ${inScope(PILE_ORGANIZATION, 1)} ORDER BY p.name, p.id`,
        [scope.pathPatterns],
      ),
      this.dataSource.query(
        `SELECT g.id, g.name, g.pile_id, g.channel_number FROM assets_gun_v g
           JOIN assets_pile_v p ON p.id = g.pile_id LEFT JOIN assets_station_v s ON s.id = p.station_id
          WHERE ${inScope(PILE_ORGANIZATION, 1)} ORDER BY g.pile_id, g.channel_number`,
        [scope.pathPatterns],
      ),
    ]);
    return {
      stations: stations.map((s: RawRow) => ({ id: Number(s['id']), name: String(s['name']) })),
      piles: piles.map((p: RawRow) => ({
        id: Number(p['id']),
        name: String(p['name']),
        stationId: numOrNull(p['station_id']),
        chargePointId: String(p['charge_point_id']),
      })),
      guns: guns.map((g: RawRow) => ({
        id: Number(g['id']),
        name: String(g['name']),
        pileId: Number(g['pile_id']),
        channel: Number(g['channel_number']),
      })),
    };
  }

  /**
   * Every row of a filtered list, newest first, in keyset batches on (stopped_at, id) (exports): stable
   * while new orders arrive.
   */
  batches(
    q: OrderQuery,
    scope: BillingDataScope,
    batchSize: number,
    limit: number,
  ): AsyncGenerator<ChargingOrderRow[]> {
    return keysetRows(
      this.dataSource,
      {
        select: `SELECT ${ROW_COLUMNS}`,
        from: FROM,
        where: whereOf(q, scope),
        at: 'o.stopped_at',
        id: 'o.id',
        idType: 'bigint',
      },
      toOrderRow,
      batchSize,
      limit,
    );
  }
}
