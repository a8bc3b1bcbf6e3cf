import type { AuthPrincipal } from '@voltdepot/server-core';
import { applyDiscount } from '../pricing/discount';
import type { BillingDataScopeProvider } from '../shared/data-scope';
import { priceSession, type MeterReading } from '../pricing/session-pricing';
import {
  ChargingOrderQueryRepository,
  type BilledAmounts,
  type LockedOrder,
  type OrderPricingInputs,
} from './charging-order-query.repository';
import { BUSINESS_TIME_ZONE } from '../shared/query-params';
import type {
  OrderQuery,
  ReviewOrderDto,
  ChargingOrderDetail,
  ChargingOrderPage,
  ChargingOrderRow,
  OrderFilterOptions,
} from './dto/order-query.dto';
import { sessionMeterReadings } from '../pricing/session-readings';
import { orderLog, orderSeries } from './order-detail';
import { OrdersQueryErrorCode, OrdersQueryException } from './orders-query.exception';

/**
 * Prices a held order the way settlement would have: the session's unflagged energy readings, the
 * plan's stages, the card's discount. Answers why it cannot when it cannot.
 */
export function priceHeldOrder(
  order: Pick<LockedOrder, 'stoppedAt' | 'meterStopWh'>,
  inputs: OrderPricingInputs,
  timeZone = BUSINESS_TIME_ZONE,
): { problems: string[] } | { amounts: BilledAmounts } {
  const problems: string[] = [];
  let readings: MeterReading[] = [];
  if (!inputs.session) {
    problems.push('the session has no recorded start, so its energy cannot be split over the price bands');
  } else {
    if (order.stoppedAt < inputs.session.startedAt) problems.push('the stop time is before the start time');
    readings = sessionMeterReadings(inputs.session, inputs.readings, order.stoppedAt, order.meterStopWh);
    if (readings.some((r) => r.energyWh < 0 || !Number.isInteger(r.energyWh)))
      problems.push('a meter value is negative or fractional');
    if (readings.some((r, i) => i > 0 && r.energyWh < readings[i - 1].energyWh))
      problems.push('the meter register decreases during the session');
  }
  if (!inputs.plan) problems.push('no price plan is in force for the session');
  if (problems.length || !inputs.plan) return { problems };
  const price = priceSession({ stages: inputs.plan.stages }, readings, timeZone);
  const discounted = inputs.discount ? applyDiscount(price, inputs.discount) : undefined;
  const payable = discounted ?? price;
  return {
    amounts: {
      pricePlanId: inputs.plan.id,
      discountPlanId: inputs.discount?.planId ?? null,
      bands: payable.bands,
      electricityFen: payable.electricityFen,
      serviceFen: payable.serviceFen,
      totalFen: payable.totalFen,
      electricityDiscountFen: discounted?.electricityDiscountFen ?? 0,
      serviceDiscountFen: discounted?.serviceDiscountFen ?? 0,
    },
  };
}

/** What the service asks of the repository (its unit test fakes exactly this). */
export type ChargingOrderStore = Pick<
  ChargingOrderQueryRepository,
  | 'transaction'
  | 'page'
  | 'batches'
  | 'filterOptions'
  | 'detail'
  | 'lockForReview'
  | 'pricingInputs'
  | 'bill'
  | 'recordReview'
>;

/** The order screens: lists with totals, the session detail, filter options and the review of held orders. */
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
    const { row, raw, session, readings, review } = found;
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
      }),
    };
  }

  /**
   * Decide on an order held at settlement, once: approving bills it (priced from its readings, pay
   * status unpaid); rejecting leaves it unbilled. The decision, its reason and the reviewer are recorded.
   */
  async review(id: number, dto: ReviewOrderDto, reviewer: AuthPrincipal): Promise<ChargingOrderDetail> {
    const scope = await this.scopes.scopeOf(reviewer.userId);
    await this.repository.transaction(async (m) => {
      const order = await this.repository.lockForReview(m, id, scope);
      if (!order)
        throw new OrdersQueryException(OrdersQueryErrorCode.NotFound, `Charging order ${id} does not exist`);
      if (!order.held)
        throw new OrdersQueryException(
          OrdersQueryErrorCode.NotHeld,
          `Charging order ${order.orderNo} was not held for review`,
        );
      if (order.review)
        throw new OrdersQueryException(
          OrdersQueryErrorCode.AlreadyReviewed,
          `Charging order ${order.orderNo} was already ${order.review.decision === 'approve' ? 'approved' : 'rejected'} by ${order.review.reviewer}`,
        );
      if (dto.decision === 'approve') {
        const priced = priceHeldOrder(order, await this.repository.pricingInputs(m, order));
        if ('problems' in priced)
          throw new OrdersQueryException(
            OrdersQueryErrorCode.NotBillable,
            `Charging order ${order.orderNo} cannot be billed: ${priced.problems.join('; ')}`,
            { problems: priced.problems },
          );
        await this.repository.bill(m, order.id, priced.amounts);
      }
      const recorded = await this.repository.recordReview(m, {
        orderId: order.id,
        decision: dto.decision,
        reason: dto.reason,
        reviewerId: reviewer.userId,
        reviewer: reviewer.username,
      });
      // Only reachable if a decision slipped in past the lock: undo the billing with the transaction.
      if (!recorded)
        throw new OrdersQueryException(
          OrdersQueryErrorCode.AlreadyReviewed,
          `Charging order ${order.orderNo} was already reviewed`,
        );
    });
    return this.detail(reviewer, id);
  }
}
