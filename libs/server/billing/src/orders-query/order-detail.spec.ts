import { applyDiscount } from '../pricing/discount';
import { priceSession } from '../pricing/session-pricing';
import { orderLog, orderSeries } from './order-detail';
import { priceHeldOrder } from './orders-query.service';

const at = (iso: string) => new Date(iso);
const session = { idTag: 'CARD1', meterStartWh: 1_000, startedAt: at('2026-11-20T00:00:00Z') };
const stop = at('2026-11-20T01:00:00Z');
const energy = (iso: string, value: number, flag: string | null = null) => ({
  measurand: 'Energy.Active.Import.Register',
  at: at(iso),
  value,
  flag,
});

describe('orderSeries', () => {
  it('draws energy since the start and the average power of each interval, leaving out flagged samples', () => {
    const series = orderSeries(
      session,
      [
        energy('2026-11-20T00:30:00Z', 31_000),
        energy('2026-11-20T00:40:00Z', 5, 'decreasing'),
        { measurand: 'SoC', at: at('2026-11-20T00:30:00Z'), value: 55, flag: null },
        { measurand: 'SoC', at: at('2026-11-20T00:45:00Z'), value: 140, flag: null },
      ],
      stop,
      46_000,
    );
    expect(series.energySeries).toEqual([
      { at: '2026-11-20T00:00:00.000Z', energyWh: 0 },
      { at: '2026-11-20T00:30:00.000Z', energyWh: 30_000 },
      { at: '2026-11-20T01:00:00.000Z', energyWh: 45_000 },
    ]);
    expect(series.powerSeries).toEqual([
      { at: '2026-11-20T00:30:00.000Z', powerW: 60_000 },
      { at: '2026-11-20T01:00:00.000Z', powerW: 30_000 },
    ]);
    // A SoC outside 0-100 is not drawn.
    expect(series.socSeries).toEqual([{ at: '2026-11-20T00:30:00.000Z', soc: 55 }]);
  });

  it('draws no energy or power without a recorded start, or with a stop before it', () => {
    expect(orderSeries(undefined, [energy('2026-11-20T00:30:00Z', 2_000)], stop, 3_000)).toMatchObject({
      energySeries: [],
      powerSeries: [],
    });
    expect(orderSeries(session, [], at('2026-11-19T23:00:00Z'), 3_000).energySeries).toEqual([]);
  });

  it('skips an interval of no length instead of dividing by zero', () => {
    const series = orderSeries(session, [], session.startedAt, 1_000);
    expect(series.powerSeries).toEqual([]);
    expect(series.energySeries).toHaveLength(2);
  });
});

describe('orderLog', () => {
  it('tells start, stop, hold and review in order, with who decided', () => {
    const log = orderLog({
      session,
      stoppedAt: stop,
      endReason: 'EVDisconnected',
      settledAt: at('2026-11-20T01:00:01Z'),
      totalFen: 1234,
      abnormalReasons: ['SoC out of range 0-100'],
      review: { decision: 'approve', reason: 'ok', reviewer: 'operator', at: at('2026-11-21T08:00:00Z') },
    });
    expect(log.map((e) => [e.action, e.by, e.detail, e.amountFen])).toEqual([
      ['started', null, 'CARD1', null],
      ['stopped', null, 'EVDisconnected', null],
      ['held', null, null, null],
      ['approved', 'operator', 'ok', 1234],
    ]);
    expect(log[2].reasons).toEqual(['SoC out of range 0-100']);
  });
});

describe('priceHeldOrder', () => {
  const plan = {
    id: 3,
    stages: [
      {
        stageType: 'valley' as const,
        startMinute: 0,
        endMinute: 480,
        electricityPrice: 3200,
        serviceFee: 4000,
      },
      {
        stageType: 'peak' as const,
        startMinute: 480,
        endMinute: 1440,
        electricityPrice: 8523,
        serviceFee: 8000,
      },
    ],
  };
  const order = { stoppedAt: stop, meterStopWh: 46_000 };

  it('prices like settlement: unflagged readings, the plan, the discount', () => {
    const priced = priceHeldOrder(order, {
      session,
      readings: [energy('2026-11-20T00:30:00Z', 31_000), energy('2026-11-20T00:40:00Z', 5, 'negative')],
      plan,
      discount: { planId: 9, pricePercent: 90, servicePercent: 100 },
    });
    const expected = priceSession(
      plan,
      [
        { at: session.startedAt.getTime(), energyWh: 1_000 },
        { at: at('2026-11-20T00:30:00Z').getTime(), energyWh: 31_000 },
        { at: stop.getTime(), energyWh: 46_000 },
      ],
      'Asia/Shanghai',
    );
    const discounted = applyDiscount(expected, { planId: 9, pricePercent: 90, servicePercent: 100 });
    expect('amounts' in priced && priced.amounts).toEqual({
      pricePlanId: 3,
      discountPlanId: 9,
      bands: discounted.bands,
      electricityFen: discounted.electricityFen,
      serviceFen: expected.serviceFen,
      totalFen: discounted.totalFen,
      electricityDiscountFen: discounted.electricityDiscountFen,
      serviceDiscountFen: 0,
    });
    expect(discounted.electricityDiscountFen).toBeGreaterThan(0);
  });

  it.each<[string, Partial<Parameters<typeof priceHeldOrder>[1]>, string]>([
    [
      'no recorded start',
      { session: undefined },
      'the session has no recorded start, so its energy cannot be split over the price bands',
    ],
    ['no price plan', { plan: undefined }, 'no price plan is in force for the session'],
    [
      'a register running backwards',
      { readings: [energy('2026-11-20T00:30:00Z', 500)] },
      'the meter register decreases during the session',
    ],
  ])('names why it cannot price an order with %s', (_case, override, problem) => {
    const priced = priceHeldOrder(order, { session, readings: [], plan, ...override });
    expect(priced).toEqual({ problems: [problem] });
  });

  it('refuses a stop before the start', () => {
    const priced = priceHeldOrder(
      { stoppedAt: at('2026-11-19T00:00:00Z'), meterStopWh: 46_000 },
      {
        session,
        readings: [],
        plan,
      },
    );
    expect('problems' in priced && priced.problems).toContain('the stop time is before the start time');
  });
});
