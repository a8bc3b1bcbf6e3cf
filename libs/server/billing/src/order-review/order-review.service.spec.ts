import type { AuthPrincipal } from '@voltdepot/server-core';
import { InMemoryTable, inMemoryTransaction } from '@voltdepot/server-testing';
import type { ReviewDecision } from '@voltdepot/shared-contracts';
import { OrderAmended, type EventEnvelope, type OrderAmendedV1 } from '@voltdepot/shared-events';
import type { EntityManager } from 'typeorm';
import type { BillingDataScope } from '../shared/data-scope';
import { NOTHING_BILLED } from '../pricing/order-amounts';
import { OrderReviewErrorCode } from './order-review.exception';
import { OrderReviewService, type OrderReviewStore } from './order-review.service';
import type { OrderPricingInputs, OrderState, VersionedOrder, VersionMeta } from './order-version.repository';

type Order = Omit<VersionedOrder, 'review'> & { orgPath: string };
type Review = { id: number; decision: ReviewDecision; reason: string; reviewer: string; at: Date };
type Version = { id: number; orderId: number; version: number; state: OrderState } & VersionMeta;

const T0 = new Date('2026-11-20T07:00:00+08:00');
const T1 = new Date('2026-11-20T08:00:00+08:00');
/** One stage over the day: 1.0000 yuan/kWh electricity, 0.2000 service. */
const FLAT = {
  planId: 3,
  stages: [
    {
      stageType: 'normal' as const,
      startMinute: 0,
      endMinute: 1440,
      electricityPrice: 10_000,
      serviceFee: 2_000,
    },
  ],
  discount: null,
};
const sample = (minutes: number, value: number, flag: string | null = null) => ({
  measurand: 'Energy.Active.Import.Register',
  at: new Date(T0.getTime() + minutes * 60_000),
  value,
  flag,
});
/** 10 kWh from 07:00 to 08:00 (the order's stop register is 10,000 Wh), a decimal sample half way. */
const TEN_KWH: OrderPricingInputs = {
  session: { idTag: 'BUS-0001', meterStartWh: 0, startedAt: T0 },
  readings: [sample(30, 5_000.37)],
  tariff: FLAT,
};

/** Orders, their versions and reviews, and the events the versions wrote, as the service sees them. */
class FakeOrders implements OrderReviewStore {
  readonly orders = new InMemoryTable<Order>();
  readonly versions = new InMemoryTable<Version>({
    request: (v) => [v.orderId, v.requestKey],
    version: (v) => [v.orderId, v.version],
  });
  readonly reviews = new InMemoryTable<Review>();
  readonly outbox = new InMemoryTable<{ id: number; envelope: EventEnvelope }>();
  pricing: OrderPricingInputs = TEN_KWH;
  /** A decision another reviewer records between the lock and ours. */
  concurrentReview?: Omit<Review, 'id'>;
  /** The manager the writer adds `order.amended` to the outbox through. */
  private readonly manager = {
    query: async (_sql: string, [json]: [string]) => {
      for (const envelope of JSON.parse(json) as EventEnvelope[]) this.outbox.insert({ envelope });
    },
  } as unknown as EntityManager;

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return inMemoryTransaction([this.orders, this.versions, this.reviews, this.outbox], () =>
      work(this.manager),
    );
  }
  async lock(_m: EntityManager, ref: { id: number; scope: BillingDataScope } | object) {
    const { id, scope } = ref as { id: number; scope: BillingDataScope };
    const order = this.orders.get(id);
    if (!order || !scope.pathPatterns.some((p) => order.orgPath.startsWith(p.replace(/%$/, ''))))
      return undefined;
    const review = this.reviews.get(id);
    return {
      ...order,
      review: review && { decision: review.decision, reviewer: review.reviewer, at: review.at },
    };
  }
  async pricingInputs() {
    return this.pricing;
  }
  async versionByRequest(_m: EntityManager, orderId: number, requestKey: string) {
    const v = this.versions.find((x) => x.orderId === orderId && x.requestKey === requestKey);
    return v && { ...v, before: v.state, after: v.state, at: T1 };
  }
  async saveVersion(_m: EntityManager, order: VersionedOrder, next: OrderState, meta: VersionMeta) {
    if (this.versions.find((v) => v.orderId === order.id && v.requestKey === meta.requestKey)) return false;
    this.versions.insert({ orderId: order.id, version: order.version + 1, state: next, ...meta });
    this.orders.update(order.id, { version: order.version + 1, state: next });
    return true;
  }
  async recordReview(
    _m: EntityManager,
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
  amended(): OrderAmendedV1[] {
    return this.outbox
      .filter()
      .map((e) => e.envelope)
      .filter((e) => OrderAmended.is(e))
      .map((e) => e.payload as OrderAmendedV1);
  }
}

const alice = { userId: 5, username: 'alice' } as AuthPrincipal;

function setup() {
  const repository = new FakeOrders();
  const relay = { nudged: 0, nudge: () => void relay.nudged++ };
  const service = new OrderReviewService(
    repository,
    { scopeOf: async () => ({ pathPatterns: ['/1/2/%'] }) },
    relay,
  );
  const state = (o: Partial<OrderState> = {}): OrderState => ({
    meterStopWh: 10_000,
    stoppedAt: T1.toISOString(),
    endReason: 'Local',
    stopKind: 'normal',
    energyWh: 10_000,
    startSoc: null,
    endSoc: null,
    payStatus: 3,
    abnormalReasons: ['socOutOfRange'],
    pricePlanId: 3,
    amounts: NOTHING_BILLED,
    ...o,
  });
  const order = (o: Partial<Order> = {}, s: Partial<OrderState> = {}) =>
    repository.orders.insert({
      orderNo: 'ORD-1',
      chargePointId: 'CP-1',
      connectorId: 1,
      transactionId: 1,
      version: 1,
      meterStartWh: 0,
      abandonRule: null,
      idTag: 'BUS-0001',
      orgPath: '/1/2/5/',
      state: state(s),
      ...o,
    }).id;
  /** A billed order (1,200 fen for its 10 kWh), flagged for a repeated stop unless said otherwise. */
  const billed = (reasons: OrderState['abnormalReasons'] = ['repeatedStop']) =>
    order(
      {},
      {
        payStatus: 0,
        abnormalReasons: reasons,
        amounts: { ...NOTHING_BILLED, electricityFen: 1_000, serviceFen: 200, totalFen: 1_200 },
      },
    );
  return { repository, service, relay, order, billed };
}

describe('OrderReviewService.review', () => {
  it('approving bills the held order from its readings: a new version, announced with the difference', async () => {
    const { service, repository, order, relay } = setup();
    const id = order();
    await service.review(id, { decision: 'approve', reason: 'meter checked' }, alice);
    expect(repository.orders.get(id)).toMatchObject({
      version: 2,
      state: {
        payStatus: 0,
        amounts: expect.objectContaining({ electricityFen: 1_000, serviceFen: 200, totalFen: 1_200 }),
      },
    });
    expect(repository.versions.filter()).toEqual([
      expect.objectContaining({ version: 2, kind: 'approved', actorName: 'alice', reason: 'meter checked' }),
    ]);
    expect(repository.amended()).toEqual([
      expect.objectContaining({
        version: 2,
        kind: 'approved',
        amendedBy: 'alice',
        idTag: 'BUS-0001',
        figures: expect.objectContaining({ totalFen: 1_200, payStatus: 0 }),
        difference: { meterStopWh: 0, energyWh: 0, electricityFen: 1_000, serviceFen: 200, totalFen: 1_200 },
      }),
    ]);
    expect(repository.reviews.get(id)).toMatchObject({ decision: 'approve', reviewer: 'alice' });
    expect(relay.nudged).toBe(1);
  });

  it("approving applies the card's discount kept on the order", async () => {
    const { service, repository, order } = setup();
    repository.pricing = {
      ...TEN_KWH,
      tariff: { ...FLAT, discount: { planId: 8, pricePercent: 90, servicePercent: 50 } },
    };
    const id = order();
    await service.review(id, { decision: 'approve', reason: 'ok' }, alice);
    expect(repository.orders.get(id)?.state.amounts).toMatchObject({
      discountPlanId: 8,
      totalFen: 1_000,
      electricityDiscountFen: 100,
      serviceDiscountFen: 100,
    });
  });

  it('rejecting records the decision and bills nothing: no version', async () => {
    const { service, repository, order } = setup();
    const id = order();
    await service.review(id, { decision: 'reject', reason: 'test session' }, alice);
    expect(repository.orders.get(id)).toMatchObject({ version: 1, state: { payStatus: 3 } });
    expect(repository.reviews.get(id)).toMatchObject({ decision: 'reject', reason: 'test session' });
    expect(repository.amended()).toEqual([]);
  });

  it('approving a flagged billed order confirms it as billed: no version, no event', async () => {
    const { service, repository, billed } = setup();
    const id = billed();
    await service.review(id, { decision: 'approve', reason: 'the first stop is right' }, alice);
    expect(repository.orders.get(id)).toMatchObject({ version: 1, state: { payStatus: 0 } });
    expect(repository.reviews.get(id)).toMatchObject({ decision: 'approve' });
    expect(repository.amended()).toEqual([]);
  });

  it.each<[string, (s: ReturnType<typeof setup>) => number, OrderReviewErrorCode, number]>([
    ['a missing order', () => 99, OrderReviewErrorCode.NotFound, 404],
    [
      'an order of another organisation (reads as missing)',
      (s) => s.order({ orgPath: '/1/3/' }),
      OrderReviewErrorCode.NotFound,
      404,
    ],
    [
      'an order settled without being held',
      (s) => s.order({}, { payStatus: 0, abnormalReasons: [] }),
      OrderReviewErrorCode.NotHeld,
      409,
    ],
    ['the rejection of a billed (flagged) order', (s) => s.billed(), OrderReviewErrorCode.Billed, 409],
  ])('refuses %s', async (_case, make, code, status) => {
    const s = setup();
    const id = make(s);
    await expect(s.service.review(id, { decision: 'reject', reason: 'x' }, alice)).rejects.toMatchObject({
      code,
      httpStatus: status,
    });
    expect(s.repository.reviews.size).toBe(0);
  });

  it('decides once: a second review is refused, naming the first decision and its reviewer', async () => {
    const { service, order } = setup();
    const id = order();
    await service.review(id, { decision: 'reject', reason: 'no' }, alice);
    const again = service.review(id, { decision: 'approve', reason: 'yes' }, { ...alice, username: 'bob' });
    await expect(again).rejects.toMatchObject({
      code: OrderReviewErrorCode.AlreadyReviewed,
      httpStatus: 409,
    });
    await expect(again).rejects.toThrow(/already rejected by alice/);
  });

  it.each<[string, OrderPricingInputs, RegExp]>([
    ['no recorded start', { ...TEN_KWH, session: undefined }, /no recorded start/],
    ['no plan in force', { ...TEN_KWH, tariff: undefined }, /no price plan/],
    [
      'a register running backwards beyond the rounding',
      { ...TEN_KWH, readings: [sample(30, 10_001.5)] },
      /register decreases/,
    ],
    ['a negative register', { ...TEN_KWH, readings: [sample(30, -2)] }, /negative/],
    [
      'a stop before the start',
      { ...TEN_KWH, session: { ...TEN_KWH.session!, startedAt: new Date(T1.getTime() + 60_000) } },
      /stop time is before the start/,
    ],
  ])(
    'refuses to approve a session with %s (422, naming why), recording nothing',
    async (_case, pricing, why) => {
      const { service, repository, order } = setup();
      repository.pricing = pricing;
      const id = order();
      const refused = service.review(id, { decision: 'approve', reason: 'ok' }, alice);
      await expect(refused).rejects.toMatchObject({
        code: OrderReviewErrorCode.NotBillable,
        httpStatus: 422,
      });
      await expect(refused).rejects.toThrow(why);
      expect(repository.orders.get(id)?.version).toBe(1);
      expect(repository.reviews.size).toBe(0);
      expect(repository.amended()).toEqual([]);
    },
  );

  it('approves a last decimal sample within the rounding tolerance above the stop', async () => {
    const { service, repository, order } = setup();
    repository.pricing = { ...TEN_KWH, readings: [sample(59, 10_000.8)] };
    const id = order();
    await service.review(id, { decision: 'approve', reason: 'ok' }, alice);
    expect(repository.orders.get(id)?.state.amounts.totalFen).toBe(1_200);
  });

  it('undoes the billing and its event when another decision slipped in past the lock', async () => {
    const { service, repository, order } = setup();
    const id = order();
    repository.concurrentReview = { decision: 'reject', reason: 'first', reviewer: 'bob', at: T1 };
    await expect(service.review(id, { decision: 'approve', reason: 'ok' }, alice)).rejects.toMatchObject({
      code: OrderReviewErrorCode.AlreadyReviewed,
    });
    expect(repository.orders.get(id)).toMatchObject({ version: 1, state: { payStatus: 3 } });
    expect(repository.amended()).toEqual([]);
  });
});

describe('OrderReviewService.amend', () => {
  const amend = { meterStopWh: 10_072, reason: 'the later stop read 10,072 Wh', requestId: 'req-0001' };

  it('re-prices a billed order at the new meter stop: a new version by whom and why, with the difference', async () => {
    const { service, repository, billed, relay } = setup();
    const id = billed();
    await service.amend(id, amend, alice);
    expect(repository.orders.get(id)).toMatchObject({
      version: 2,
      state: {
        meterStopWh: 10_072,
        energyWh: 10_072,
        payStatus: 0,
        abnormalReasons: ['repeatedStop'],
        amounts: expect.objectContaining({ electricityFen: 1_007, serviceFen: 201, totalFen: 1_208 }),
      },
    });
    expect(repository.amended()).toEqual([
      expect.objectContaining({
        version: 2,
        kind: 'amended',
        reason: amend.reason,
        amendedBy: 'alice',
        difference: { meterStopWh: 72, energyWh: 72, electricityFen: 7, serviceFen: 1, totalFen: 8 },
      }),
    ]);
    expect(relay.nudged).toBe(1);
  });

  it('amends once under retries: the same request id finds its version and changes nothing', async () => {
    const { service, repository, billed } = setup();
    const id = billed();
    await service.amend(id, amend, alice);
    await service.amend(id, amend, alice);
    await service.amend(id, { ...amend }, alice);
    expect(repository.versions.size).toBe(1);
    expect(repository.amended()).toHaveLength(1);
    expect(repository.orders.get(id)?.version).toBe(2);
  });

  it('refuses a request id that made another change (409)', async () => {
    const { service, billed } = setup();
    const id = billed();
    await service.amend(id, amend, alice);
    await expect(service.amend(id, { ...amend, meterStopWh: 10_100 }, alice)).rejects.toMatchObject({
      code: OrderReviewErrorCode.RequestReused,
      httpStatus: 409,
    });
  });

  it('takes the energy instead of the meter stop: the stop is the start plus it', async () => {
    const { service, repository, billed } = setup();
    const id = billed();
    await service.amend(id, { energyWh: 9_000, reason: 'meter read on site', requestId: 'req-0002' }, alice);
    expect(repository.orders.get(id)?.state).toMatchObject({ meterStopWh: 9_000, energyWh: 9_000 });
    expect(repository.amended()[0].difference.totalFen).toBe(-120);
  });

  it("changes a held order's meter and energy only: it still bills nothing until approved", async () => {
    const { service, repository, order } = setup();
    const id = order();
    await service.amend(id, amend, alice);
    expect(repository.orders.get(id)?.state).toMatchObject({
      meterStopWh: 10_072,
      energyWh: 10_072,
      payStatus: 3,
    });
    expect(repository.amended()[0].difference).toMatchObject({ energyWh: 72, totalFen: 0 });
  });

  it('refuses the meter stop it already has, and one below the meter start (422), changing nothing', async () => {
    const { service, repository, billed } = setup();
    const id = billed();
    repository.pricing = { ...TEN_KWH, session: { ...TEN_KWH.session!, meterStartWh: 500 } };
    await expect(service.amend(id, { ...amend, meterStopWh: 10_000 }, alice)).rejects.toMatchObject({
      code: OrderReviewErrorCode.NothingToAmend,
      httpStatus: 422,
    });
    const below = service.amend(id, { ...amend, meterStopWh: 100 }, alice);
    await expect(below).rejects.toMatchObject({ code: OrderReviewErrorCode.NotAmendable, httpStatus: 422 });
    await expect(below).rejects.toThrow(/must not be below the meter start \(500 Wh\)/);
    expect(repository.versions.size).toBe(0);
    expect(repository.amended()).toEqual([]);
  });

  it('previews the figures and the difference without saving anything', async () => {
    const { service, repository, billed } = setup();
    const id = billed();
    const preview = await service.previewAmendment(id, { meterStopWh: 10_072 }, alice);
    expect(preview).toEqual({
      version: 2,
      current: {
        meterStopWh: 10_000,
        energyWh: 10_000,
        electricityFen: 1_000,
        serviceFen: 200,
        totalFen: 1_200,
        payStatus: 0,
      },
      amended: {
        meterStopWh: 10_072,
        energyWh: 10_072,
        electricityFen: 1_007,
        serviceFen: 201,
        totalFen: 1_208,
        payStatus: 0,
      },
      difference: { meterStopWh: 72, energyWh: 72, electricityFen: 7, serviceFen: 1, totalFen: 8 },
    });
    expect(repository.versions.size).toBe(0);
    expect(repository.orders.get(id)?.version).toBe(1);
  });
});
