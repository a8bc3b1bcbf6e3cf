import type { DataSource } from 'typeorm';
import { keysetRows } from '../shared/keyset';
import { inScope, type BillingDataScope } from '../shared/data-scope';
import { containing } from '../shared/query-params';
import { numOrNull, scopedWhere, textOrNull } from '../shared/sql-rows';
import type { OccupationOrderQuery, OccupationOrderView } from './dto/occupation-order.dto';

/** An order with the names of where it happened (pile by charge point id, gun by channel number). */
const FROM = `
  FROM occupation_order o
  LEFT JOIN assets_pile_v p ON p.charge_point_id = o.charge_point_id
  LEFT JOIN assets_station_v s ON s.id = o.station_id
  LEFT JOIN assets_gun_v g ON g.pile_id = p.id AND g.channel_number = o.connector_id
  LEFT JOIN charging_order c ON c.charge_point_id = o.charge_point_id AND c.transaction_id = o.transaction_id`;

const COLUMNS = `o.id, o.order_no, o.charging_order_no, c.id AS charging_order_id, o.charge_point_id, o.connector_id,
  o.transaction_id, o.station_id, s.name AS station_name, p.id AS pile_id, p.name AS pile_name, g.id AS gun_id,
  g.name AS gun_name, c.id_tag, o.fee_scope, o.occupied_from, o.occupied_to, o.free_minutes, o.interval_minutes,
  o.unit_price_fen, o.capped_amount_fen, o.billable_intervals, o.amount_fen, o.pay_status, o.created_at`;

function toView(r: Record<string, unknown>): OccupationOrderView {
  const from = new Date(r['occupied_from'] as Date);
  const to = new Date(r['occupied_to'] as Date);
  return {
    id: Number(r['id']),
    orderNo: String(r['order_no']),
    chargingOrderNo: String(r['charging_order_no']),
    chargingOrderId: numOrNull(r['charging_order_id']),
    chargePointId: String(r['charge_point_id']),
    connectorId: Number(r['connector_id']),
    transactionId: Number(r['transaction_id']),
    stationId: numOrNull(r['station_id']),
    stationName: textOrNull(r['station_name']),
    pileId: numOrNull(r['pile_id']),
    pileName: textOrNull(r['pile_name']),
    gunId: numOrNull(r['gun_id']),
    gunName: textOrNull(r['gun_name']),
    idTag: textOrNull(r['id_tag']),
    feeScope: r['fee_scope'] === 'external' ? 'external' : 'internal',
    occupiedFrom: from.toISOString(),
    occupiedTo: to.toISOString(),
    occupiedSeconds: Math.max(0, Math.floor((to.getTime() - from.getTime()) / 1000)),
    freeMinutes: Number(r['free_minutes']),
    intervalMinutes: Number(r['interval_minutes']),
    unitPriceFen: Number(r['unit_price_fen']),
    cappedAmountFen: Number(r['capped_amount_fen']),
    billableIntervals: Number(r['billable_intervals']),
    amountFen: Number(r['amount_fen']),
    payStatus: Number(r['pay_status']),
    createdAt: new Date(r['created_at'] as Date).toISOString(),
  };
}

/** Reads of occupation fee orders, always within the caller's data scope (the station's organisation). */
export class OccupationOrdersRepository {
  constructor(private readonly dataSource: DataSource) {}

  private where(q: OccupationOrderQuery, scope: BillingDataScope): { sql: string; params: unknown[] } {
    const where = scopedWhere('o.organization_id', scope);
    const add = where.add;
    if (q.start) add((p) => `o.occupied_from >= ${p}`, q.start);
    if (q.end) add((p) => `o.occupied_from <= ${p}`, q.end);
    if (q.stationId) add((p) => `o.station_id = ${p}`, q.stationId);
    if (q.pileId) add((p) => `p.id = ${p}`, q.pileId);
    if (q.gunId) add((p) => `g.id = ${p}`, q.gunId);
    if (q.orderNo)
      add((p) => `(o.order_no ILIKE ${p} OR o.charging_order_no ILIKE ${p})`, containing(q.orderNo));
    if (q.payStatus !== undefined) add((p) => `o.pay_status = ${p}`, q.payStatus);
    if (q.feeScope) add((p) => `o.fee_scope = ${p}`, q.feeScope);
    return { sql: where.sql, params: where.params };
  }

  async page(
    q: OccupationOrderQuery,
    scope: BillingDataScope,
    page: number,
    size: number,
  ): Promise<{ list: OccupationOrderView[]; total: number; totalAmountFen: number }> {
    const { sql, params } = this.where(q, scope);
    const [list, [sum]] = await Promise.all([
      this.list(q, scope, page, size),
      this.dataSource.query(
        `SELECT count(*)::int AS total, coalesce(sum(o.amount_fen), 0)::bigint AS amount ${FROM} ${sql}`,
        params,
      ) as Promise<{ total: number; amount: string }[]>,
    ]);
    return { list, total: sum.total, totalAmountFen: Number(sum.amount) };
  }

  /** One page of the list without its count and sum (exports read page after page). */
  async list(
    q: OccupationOrderQuery,
    scope: BillingDataScope,
    page: number,
    size: number,
  ): Promise<OccupationOrderView[]> {
    const { sql, params } = this.where(q, scope);
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT ${COLUMNS} ${FROM} ${sql} ORDER BY o.occupied_from DESC, o.id DESC
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, size, (page - 1) * size],
    );
    return rows.map(toView);
  }

  /** Every row of the filtered list, newest first, in batches by keyset (exports). */
  batches(
    q: OccupationOrderQuery,
    scope: BillingDataScope,
    batchSize: number,
    limit: number,
  ): AsyncGenerator<OccupationOrderView[]> {
    return keysetRows(
      this.dataSource,
      {
        select: `SELECT ${COLUMNS}`,
        from: FROM,
        where: this.where(q, scope),
        at: 'o.occupied_from',
        id: 'o.id',
        idType: 'bigint',
      },
      toView,
      batchSize,
      limit,
    );
  }

  async get(id: number, scope: BillingDataScope): Promise<OccupationOrderView | undefined> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT ${COLUMNS} ${FROM} WHERE o.id = $2 AND ${inScope('o.organization_id', 1)}`,
      [scope.pathPatterns, id],
    );
    return rows[0] ? toView(rows[0]) : undefined;
  }
}
