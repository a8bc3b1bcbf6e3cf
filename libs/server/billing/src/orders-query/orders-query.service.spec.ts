import type { AuthPrincipal } from '@voltdepot/server-core';
import { InMemoryTable, inMemoryTransaction } from '@voltdepot/server-testing';
import type { ReviewDecision } from '@voltdepot/shared-contracts';
import type { ChargingOrderRow } from './dto/order-query.dto';
import type { BillingDataScope } from '../shared/data-scope';
import type { BilledAmounts, LockedOrder, OrderPricingInputs } from './charging-order-query.repository';
import { OrdersQueryErrorCode } from './orders-query.exception';
import { OrdersQueryService, type ChargingOrderStore } from './orders-query.service';

type Order = Omit<LockedOrder, 'review'> & { orgPath: string; billed?: BilledAmounts; payStatus: number };
type Review = { id: number; decision: ReviewDecision; reason: string; reviewer: string; at: Date };

const T0 = new Date('2026-11-20T07:00:00+08:00');
const T1 = new Date('2026-11-20T08:00:00+08:00');
/** One stage over the day: 1.0000 yuan/kWh electricity, 0.2000 service. */
const FLAT = {
  id: 3,
  stages: [
    {
      stageType: 'normal' as const,
      startMinute: 0,
      endMinute: 1440,
      electricityPrice: 10_000,
      serviceFee: 2_000,
    },
  ],
};
/** 10 kWh from 07:00 to 08:00 (the order's stop register is 10,000 Wh). */
const TEN_KWH: OrderPricingInputs = {
  session: { idTag: 'BUS-0001', meterStartWh: 0, startedAt: T0 },
  readings: [{ at: new Date(T0.getTime() + 1_800_000), value: 5_000, flag: null }],
  plan: FLAT,
};

const notUsed = async (): Promise<never> => {
  throw new Error('not used');
};

/** Held orders and their reviews as the service sees them; `pricing` is what pricingInputs answers. */
class FakeChargingOrders implements ChargingOrderStore {
  readonly orders = new InMemoryTable<Order>();
  readonly reviews = new InMemoryTable<Review>();
  pricing: OrderPricingInputs = TEN_KWH;
  /** A decision another reviewer records between the lock and ours. */
  concurrentReview?: Omit<Review, 'id'>;

  transaction<T>(work: (m: never) => Promise<T>): Promise<T> {
    return inMemoryTransaction([this.orders, this.reviews], work);
  }
  // The lists are SQL (integration tests); the review under test never reads them.
  page = notUsed;
  filterOptions = notUsed;
  // eslint-disable-next-line require-yield
  async *batches(): AsyncGenerator<never> {
    throw new Error('not used');
  }
  async lockForReview(_m: unknown, id: number, scope: BillingDataScope) {
    const order = this.visible(id, scope);
    if (!order) return undefined;
    const review = this.reviews.get(id);
    return {
      ...order,
      review: review && { decision: review.decision, reviewer: review.reviewer, at: review.at },
    };
  }
  async pricingInputs() {
    return this.pricing;
  }
  async bill(_m: unknown, orderId: number, amounts: BilledAmounts) {
    this.orders.update(orderId, { billed: amounts, payStatus: 0 });
  }
  async recordReview(
    _m: unknown,
    r: { orderId: number; decision: ReviewDecision; reason: string; reviewer: string },
  ) {
    if (this.concurrentReview) this.reviews.insert({ id: r.orderId, ...this.concurrentReview });
    if (this.reviews.get(r.orderId)) return false;
    this.reviews.insert({
      id: r.orderId,
      decision: r.decision,
      reason: r.reason,
      reviewer: r.reviewer,
      at: T1,
    });
    return true;
  }
  async detail(id: number, scope: BillingDataScope) {
    const order = this.visible(id, scope);
    if (!order) return undefined;
    const review = this.reviews.get(id);
    const row = {
      id,
      orderNo: order.orderNo,
      stoppedAt: order.stoppedAt.toISOString(),
      settledAt: order.stoppedAt.toISOString(),
      endReason: 'Local',
      payStatus: order.payStatus,
      totalFen: order.billed?.totalFen ?? 0,
      occupationFeeFen: null,
      abnormalReasons: ['SoC out of range'],
    } as unknown as ChargingOrderRow;
    const raw = {
      meter_start_wh: 0,
      meter_stop_wh: order.meterStopWh,
      price_plan_id: null,
      discount_plan_id: null,
    };
    return { row, raw, readings: [], review };
  }

  private visible(id: number, scope: BillingDataScope): Order | undefined {
    const order = this.orders.get(id);
    return order && scope.pathPatterns.some((p) => order.orgPath.startsWith(p.replace(/%$/, '')))
      ? order
      : undefined;
  }
}

const reviewer = { userId: 5, username: 'alice' } as AuthPrincipal;

function setup() {
  const repository = new FakeChargingOrders();
  const service = new OrdersQueryService(repository, {
    scopeOf: async () => ({ pathPatterns: ['/1/2/%'] }),
  });
  const held = (o: Partial<Order> = {}) =>
    repository.orders.insert({
      orderNo: 'ORD-1',
      chargePointId: 'CP-1',
      transactionId: 1,
      stoppedAt: T1,
      meterStopWh: 10_000,
      held: true,
      orgPath: '/1/2/5/',
      payStatus: 3,
      ...o,
    }).id;
  return { repository, service, held };
}

describe('OrdersQueryService.review', () => {
  it('approving bills the held order from its readings and records who decided why', async () => {
    const { service, repository, held } = setup();
    const id = held();
    const detail = await service.review(id, { decision: 'approve', reason: 'meter checked' }, reviewer);
    expect(repository.orders.get(id)?.billed).toMatchObject({
      pricePlanId: 3,
      electricityFen: 1_000,
      serviceFen: 200,
      totalFen: 1_200,
      discountPlanId: null,
    });
    expect(repository.orders.get(id)?.payStatus).toBe(0);
    expect(detail.review).toEqual({
      decision: 'approve',
      reason: 'meter checked',
      reviewer: 'alice',
      at: T1.toISOString(),
    });
  });

  it("approving applies the card's discount in force at the session", async () => {
    const { service, repository, held } = setup();
    repository.pricing = { ...TEN_KWH, discount: { planId: 8, pricePercent: 90, servicePercent: 50 } };
    const id = held();
    await service.review(id, { decision: 'approve', reason: 'ok' }, reviewer);
    expect(repository.orders.get(id)?.billed).toMatchObject({
      discountPlanId: 8,
      totalFen: 1_000,
      electricityDiscountFen: 100,
      serviceDiscountFen: 100,
    });
  });

  it('rejecting records the decision and bills nothing', async () => {
    const { service, repository, held } = setup();
    const id = held();
    await service.review(id, { decision: 'reject', reason: 'test session' }, reviewer);
    expect(repository.orders.get(id)?.billed).toBeUndefined();
    expect(repository.orders.get(id)?.payStatus).toBe(3);
    expect(repository.reviews.get(id)).toMatchObject({ decision: 'reject', reason: 'test session' });
  });

  it.each<[string, Partial<Order>, OrdersQueryErrorCode, number]>([
    ['a missing order', { id: 99 }, OrdersQueryErrorCode.NotFound, 404],
    [
      'an order of another organisation (reads as missing)',
      { orgPath: '/1/3/' },
      OrdersQueryErrorCode.NotFound,
      404,
    ],
    ['an order settled without being held', { held: false }, OrdersQueryErrorCode.NotHeld, 409],
  ])('refuses %s', async (_case, order, code, status) => {
    const { service, repository, held } = setup();
    held(order);
    await expect(service.review(1, { decision: 'approve', reason: 'x' }, reviewer)).rejects.toMatchObject({
      code,
      httpStatus: status,
    });
    expect(repository.reviews.size).toBe(0);
  });

  it('decides once: a second review is refused, naming the first decision and its reviewer', async () => {
    const { service, held } = setup();
    const id = held();
    await service.review(id, { decision: 'reject', reason: 'no' }, reviewer);
    const again = service.review(
      id,
      { decision: 'approve', reason: 'yes' },
      { ...reviewer, username: 'bob' },
    );
    await expect(again).rejects.toMatchObject({
      code: OrdersQueryErrorCode.AlreadyReviewed,
      httpStatus: 409,
    });
    await expect(again).rejects.toThrow(/already rejected by alice/);
  });

  it.each<[string, OrderPricingInputs, RegExp]>([
    ['no recorded start', { ...TEN_KWH, session: undefined }, /no recorded start/],
    ['no plan in force', { ...TEN_KWH, plan: undefined }, /no price plan/],
    [
      'a register running backwards',
      { ...TEN_KWH, readings: [{ at: new Date(T0.getTime() + 1_800_000), value: 20_000, flag: null }] },
      /register decreases/,
    ],
    [
      'a stop before the start',
      { ...TEN_KWH, session: { ...TEN_KWH.session!, startedAt: new Date(T1.getTime() + 60_000) } },
      /stop time is before the start/,
    ],
  ])(
    'refuses to approve a session with %s (422, naming why), recording nothing',
    async (_case, pricing, why) => {
      const { service, repository, held } = setup();
      repository.pricing = pricing;
      const id = held();
      const refused = service.review(id, { decision: 'approve', reason: 'ok' }, reviewer);
      await expect(refused).rejects.toMatchObject({
        code: OrdersQueryErrorCode.NotBillable,
        httpStatus: 422,
      });
      await expect(refused).rejects.toThrow(why);
      expect(repository.orders.get(id)?.billed).toBeUndefined();
      expect(repository.reviews.size).toBe(0);
    },
  );

  it('undoes the billing when another decision slipped in past the lock', async () => {
    const { service, repository, held } = setup();
    const id = held();
    repository.concurrentReview = { decision: 'reject', reason: 'first', reviewer: 'bob', at: T1 };
    await expect(service.review(id, { decision: 'approve', reason: 'ok' }, reviewer)).rejects.toMatchObject({
      code: OrdersQueryErrorCode.AlreadyReviewed,
    });
    expect(repository.orders.get(id)?.billed).toBeUndefined();
  });
});
