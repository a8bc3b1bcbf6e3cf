import { applyDiscount, percentOf } from './discount';
import { parseMinute, type PricePlan } from './price-plan';
import { priceSession } from './session-pricing';

const plan: PricePlan = {
  stages: [
    {
      stageType: 'valley',
      startMinute: parseMinute('00:00'),
      endMinute: parseMinute('08:00'),
      electricityPrice: 3200,
      serviceFee: 4000,
    },
    {
      stageType: 'peak',
      startMinute: parseMinute('08:00'),
      endMinute: parseMinute('24:00'),
      electricityPrice: 8523,
      serviceFee: 8000,
    },
  ],
};

describe('percentOf', () => {
  it.each([
    [0, 95, 0],
    [100, 95, 95],
    [10, 95, 10], // 9.5 rounds half up
    [11, 95, 10], // 10.45 rounds down
    [1, 50, 1], // 0.5 rounds half up
    [3, 50, 2], // 1.5 rounds half up
    [12345, 100, 12345],
    [12345, 0, 0],
  ])('%i fen at %i %% is %i fen', (fen, percent, expected) => {
    expect(percentOf(fen, percent)).toBe(expected);
  });
});

describe('applyDiscount', () => {
  // 06:00 -> 10:00 local (Asia/Shanghai): two hours valley, two hours peak.
  const start = Date.parse('2026-11-19T22:00:00Z');
  const price = priceSession(plan, [
    { at: start, energyWh: 1_000_000 },
    { at: start + 4 * 3600_000, energyWh: 1_123_457 },
  ]);

  it('discounts each band and component of the rounded amounts, rounding half up, and sums the bands', () => {
    const d = applyDiscount(price, { planId: 1, pricePercent: 95, servicePercent: 80 });
    for (const type of ['valley', 'peak'] as const) {
      const band = price.bands[type];
      expect(d.bands[type]).toEqual({
        energyWh: band.energyWh,
        electricityFen: Math.floor((band.electricityFen * 95) / 100 + 0.5),
        serviceFen: Math.floor((band.serviceFen * 80) / 100 + 0.5),
      });
    }
    expect(d.electricityFen).toBe(d.bands.valley.electricityFen + d.bands.peak.electricityFen);
    expect(d.serviceFen).toBe(d.bands.valley.serviceFen + d.bands.peak.serviceFen);
    expect(d.totalFen).toBe(d.electricityFen + d.serviceFen);
    expect(d.electricityDiscountFen + d.electricityFen).toBe(price.electricityFen);
    expect(d.serviceDiscountFen + d.serviceFen).toBe(price.serviceFen);
  });

  it('changes nothing at 100 % and charges nothing at 0 %', () => {
    const full = applyDiscount(price, { planId: 1, pricePercent: 100, servicePercent: 100 });
    expect(full.totalFen).toBe(price.totalFen);
    expect(full.electricityDiscountFen + full.serviceDiscountFen).toBe(0);
    const free = applyDiscount(price, { planId: 1, pricePercent: 0, servicePercent: 0 });
    expect(free.totalFen).toBe(0);
  });
});
