import type { DataSource } from 'typeorm';
import type { GridPage, OrderOperationAction } from '@voltdepot/shared-contracts';
import type { BillingDataScope } from '../shared/data-scope';
import { keysetRows } from '../shared/keyset';
import { containing } from '../shared/query-params';
import { numOrNull, scopedWhere, textOrNull } from '../shared/sql-rows';
import type { OrderOperationQuery, OrderOperationView } from './dto/order-operation.dto';

/** An order version's total after it (fen). */
const VERSION_TOTAL = `(v.after->'amounts'->>'totalFen')::bigint`;

/** The order of an operation, its pile's station and the organisation that scopes it. */
const ORDER_OF = `
    JOIN charging_order o ON o.id = x.order_id
    LEFT JOIN assets_pile_v p ON p.charge_point_id = o.charge_point_id
    LEFT JOIN assets_station_v s ON s.id = p.station_id`;
const ORDER_COLUMNS = `o.id AS order_id, o.order_no, s.name AS station_name,
         COALESCE(s.organization_id, p.organization_id) AS organization_id`;

/**
 * Every operator action on orders, one row each, with the organisation that scopes it (the order's
 * station's, else its pile's). The actions the order detail's log shows as done by someone: the review
 * of held or flagged orders (`charging_order_review`, with the amount an approval billed) and operators'
 * amendments (`charging_order_version`, with the amount after). A new kind of action is one more branch of
 * this union.
 */
const OPERATIONS = `
  SELECT 'review:' || x.order_id AS id, x.reviewed_at AS at,
         CASE x.decision WHEN 'approve' THEN 'approved' ELSE 'rejected' END AS action,
         x.reviewer_name AS operator, x.reason AS detail,
         CASE WHEN x.decision = 'approve' THEN COALESCE(
           (SELECT ${VERSION_TOTAL} FROM charging_order_version v WHERE v.order_id = x.order_id AND v.kind = 'approved'),
           o.total_fen) END AS amount_fen,
         ${ORDER_COLUMNS}
    FROM charging_order_review x ${ORDER_OF}
  UNION ALL
  SELECT 'version:' || x.order_id || ':' || x.version AS id, x.created_at AS at, 'amended' AS action,
         x.actor_name AS operator, x.reason AS detail, (x.after->'amounts'->>'totalFen')::bigint AS amount_fen,
         ${ORDER_COLUMNS}
    FROM charging_order_version x ${ORDER_OF}
   WHERE x.kind = 'amended'`;

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
