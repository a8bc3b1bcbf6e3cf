import type { AuthPrincipal } from '@voltdepot/server-core';
import type { AbandonRule } from '@voltdepot/shared-events';
import type { BillingDataScopeProvider } from '../shared/data-scope';
import { ChargingOrderQueryRepository } from './charging-order-query.repository';
import type {
  OrderQuery,
  ChargingOrderDetail,
  ChargingOrderPage,
  ChargingOrderRow,
  OrderFilterOptions,
} from './dto/order-query.dto';
import { orderLog, orderSeries, orderVersions } from './order-detail';
import { OrdersQueryErrorCode, OrdersQueryException } from './orders-query.exception';

/** What the service asks of the repository (its unit test fakes exactly this). */
export type ChargingOrderStore = Pick<
  ChargingOrderQueryRepository,
  'page' | 'batches' | 'filterOptions' | 'detail'
>;

/** The order screens: lists with totals, the session detail (with its versions) and filter options. */
export class OrdersQueryService {
  constructor(
    private readonly repository: ChargingOrderStore,
    private readonly scopes: BillingDataScopeProvider,
  ) {}

  async page(me: AuthPrincipal, q: OrderQuery, page: number, size: number): Promise<ChargingOrderPage> {
    const { rows, total, totals } = await this.repository.page(
      q,
      await this.scopes.scopeOf(me.userId),
      page,
      size,
    );
    return { list: rows, total, totals };
  }

  async *rows(
    me: AuthPrincipal,
    q: OrderQuery,
    batchSize: number,
    limit: number,
  ): AsyncGenerator<ChargingOrderRow[]> {
    yield* this.repository.batches(q, await this.scopes.scopeOf(me.userId), batchSize, limit);
  }

  async filterOptions(me: AuthPrincipal): Promise<OrderFilterOptions> {
    return this.repository.filterOptions(await this.scopes.scopeOf(me.userId));
  }

  /** An order outside the caller's organisations reads the same as a missing one. */
  async detail(me: AuthPrincipal, id: number): Promise<ChargingOrderDetail> {
    const found = await this.repository.detail(id, await this.scopes.scopeOf(me.userId));
    if (!found)
      throw new OrdersQueryException(OrdersQueryErrorCode.NotFound, `Charging order ${id} does not exist`);
    const { row, raw, session, readings, review, versions, repeatStops } = found;
    const stoppedAt = new Date(row.stoppedAt);
    const meterStopWh = Number(raw['meter_stop_wh']);
    return {
      ...row,
      meterStartWh: raw['meter_start_wh'] === null ? null : Number(raw['meter_start_wh']),
      meterStopWh,
      pricePlanId: raw['price_plan_id'] === null ? null : Number(raw['price_plan_id']),
      pricePlanName: (raw['price_plan_name'] as string | null) ?? null,
      discountPlanId: raw['discount_plan_id'] === null ? null : Number(raw['discount_plan_id']),
      discountPlanName: (raw['discount_plan_name'] as string | null) ?? null,
      electricityDiscountFen: Number(raw['electricity_discount_fen']),
      serviceDiscountFen: Number(raw['service_discount_fen']),
      totalWithOccupationFen: row.totalFen + (row.occupationFeeFen ?? 0),
      bands: ChargingOrderQueryRepository.bandsOf(raw).map((b) => ({
        ...b,
        totalFen: b.electricityFen + b.serviceFen,
      })),
      ...orderSeries(session, readings, stoppedAt, meterStopWh),
      abandonRule: (raw['abandon_rule'] as AbandonRule | null) ?? null,
      versions: orderVersions({ ...row, meterStopWh }, versions),
      repeatStops,
      review: review
        ? {
            decision: review.decision,
            reason: review.reason,
            reviewer: review.reviewer,
            at: review.at.toISOString(),
          }
        : null,
      log: orderLog({
        session,
        stoppedAt,
        endReason: row.endReason,
        settledAt: new Date(row.settledAt),
        totalFen: row.totalFen,
        abnormalReasons: row.abnormalReasons,
        review,
        versions,
      }),
    };
  }
}
