import type { DataSource } from 'typeorm';
import type { GridPage, OrderOperationAction } from '@voltdepot/shared-contracts';
import type { BillingDataScope } from '../shared/data-scope';
import { keysetRows } from '../shared/keyset';
import { containing } from '../shared/query-params';
import { numOrNull, scopedWhere, textOrNull } from '../shared/sql-rows';
import type { OrderOperationQuery, OrderOperationView } from './dto/order-operation.dto';

/**
 * Every operator action on orders, one row each, with the organisation that scopes it (the order's
 * station's, else its pile's). The actions the order detail's log shows as done by someone: the review
 * of held orders (`charging_order_review`). A new kind of action is one more branch of this union.
 */
const OPERATIONS = `
  SELECT 'review:' || r.order_id AS id, r.reviewed_at AS at,
         CASE r.decision WHEN 'approve' THEN 'approved' ELSE 'rejected' END AS action,
         r.reviewer_name AS operator, r.reason AS detail,
         CASE WHEN r.decision = 'approve' THEN o.total_fen END AS amount_fen,
         o.id AS order_id, o.order_no, s.name AS station_name,
         COALESCE(s.organization_id, p.organization_id) AS organization_id
    FROM charging_order_review r
    JOIN charging_order o ON o.id = r.order_id
    LEFT JOIN assets_pile_v p ON p.charge_point_id = o.charge_point_id
    LEFT JOIN assets_station_v s ON s.id = p.station_id`;

function whereOf(q: OrderOperationQuery, scope: BillingDataScope) {
  const where = scopedWhere('op.organization_id', scope);
  if (q.start) where.add((p) => `op.at >= ${p}`, q.start);
  if (q.end) where.add((p) => `op.at <= ${p}`, q.end);
  if (q.orderNo) where.add((p) => `op.order_no ILIKE ${p}`, containing(q.orderNo));
  if (q.operator) where.add((p) => `op.operator ILIKE ${p}`, containing(q.operator));
  if (q.action) where.add((p) => `op.action = ${p}`, q.action);
  return where;
}

const toView = (r: Record<string, unknown>): OrderOperationView => ({
  id: String(r['id']),
  at: new Date(r['at'] as string).toISOString(),
  action: String(r['action']) as OrderOperationAction,
  operator: String(r['operator']),
  orderId: Number(r['order_id']),
  orderNo: String(r['order_no']),
  stationName: textOrNull(r['station_name']),
  detail: textOrNull(r['detail']),
  amountFen: numOrNull(r['amount_fen']),
});

/** The only file that touches the database for the order operation log. */
export class OrderOperationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(
    q: OrderOperationQuery,
    scope: BillingDataScope,
    page: number,
    size: number,
  ): Promise<GridPage<OrderOperationView>> {
    const where = whereOf(q, scope);
    const [{ total }] = await this.dataSource.query(
      `SELECT count(*)::int AS total FROM (${OPERATIONS}) op ${where.sql}`,
      where.params,
    );
    return { list: await this.list(q, scope, page, size), total };
  }

  /** Newest action first. */
  async list(
    q: OrderOperationQuery,
    scope: BillingDataScope,
    page: number,
    size: number,
  ): Promise<OrderOperationView[]> {
    const where = whereOf(q, scope);
    const n = where.params.length;
    const rows = await this.dataSource.query(
      `SELECT op.* FROM (${OPERATIONS}) op ${where.sql}
        ORDER BY op.at DESC, op.id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...where.params, size, (page - 1) * size],
    );
    return rows.map(toView);
  }

  /** Every row of the filtered list, newest first, in keyset batches (exports). */
  batches(
    q: OrderOperationQuery,
    scope: BillingDataScope,
    batchSize: number,
    limit: number,
  ): AsyncGenerator<OrderOperationView[]> {
    return keysetRows(
      this.dataSource,
      {
        select: 'SELECT op.*',
        from: `FROM (${OPERATIONS}) op`,
        where: whereOf(q, scope),
        at: 'op.at',
        id: 'op.id',
        idType: 'text',
      },
      toView,
      batchSize,
      limit,
    );
  }
}
