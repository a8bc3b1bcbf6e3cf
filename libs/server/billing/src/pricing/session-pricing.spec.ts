import fc from 'fast-check';
import {
  parseMinute,
  pricePlanProblems,
  stageIndexByMinute,
  STAGE_TYPES,
  type PricePlan,
  type PricePlanStage,
} from './price-plan';
import { feeFen, priceSession, type MeterReading } from './session-pricing';

const TZ = 'Asia/Shanghai';
const at = (iso: string) => Date.parse(iso);
const stage = (
  stageType: PricePlanStage['stageType'],
  from: string,
  to: string,
  electricity: number,
  service: number,
): PricePlanStage => ({
  stageType,
  startMinute: parseMinute(from),
  endMinute: parseMinute(to),
  electricityPrice: electricity,
  serviceFee: service,
});

/** A realistic five-band tariff (prices in 1/10,000 yuan per kWh). */
const fiveBands: PricePlan = {
  stages: [
    stage('deepValley', '00:00', '06:00', 2100, 4000),
    stage('valley', '06:00', '08:00', 3200, 4000),
    stage('normal', '08:00', '10:00', 6400, 6000),
    stage('peak', '10:00', '17:00', 8523, 8000),
    stage('sharp', '17:00', '19:00', 11800, 8000),
    stage('normal', '19:00', '23:00', 6400, 6000),
    stage('valley', '23:00', '24:00', 3200, 4000),
  ],
};

describe('price plan validation', () => {
  it('accepts a plan covering the whole day once, including a stage that wraps midnight', () => {
    expect(pricePlanProblems(fiveBands.stages)).toEqual([]);
    expect(
      pricePlanProblems([stage('valley', '22:00', '07:00', 1, 1), stage('peak', '07:00', '22:00', 1, 1)]),
    ).toEqual([]);
  });

  it.each([
    [
      [stage('peak', '00:00', '08:00', 1, 1), stage('valley', '09:00', '24:00', 1, 1)],
      ['gap between 08:00 and 09:00: no stage covers it'],
    ],
    [
      [stage('peak', '00:00', '12:00', 1, 1), stage('valley', '11:30', '24:00', 1, 1)],
      ['overlap between 11:30 and 12:00: 2 stages cover it'],
    ],
    [[stage('peak', '06:00', '06:00', 1, 1)], ['stage 1: start and end are the same time']],
    [[], ['a price plan needs at least one stage covering 00:00-24:00']],
    [
      [{ ...stage('peak', '00:00', '24:00', 1, 1), electricityPrice: 1.5 }],
      ['stage 1: electricity price must be between 0 and 100 yuan/kWh with at most 4 decimals'],
    ],
  ])('names what is wrong: %#', (stages, problems) => {
    expect(pricePlanProblems(stages)).toEqual(problems);
  });

  it.each(['7:00', '24:01', '12:60', 'noon'])('refuses the time %s', (text) => {
    expect(() => parseMinute(text)).toThrow(/is not a time of day|after 24:00/);
  });
});

describe('session pricing', () => {
  it('rounds each fee half up to the fen', () => {
    expect(feeFen(1000, 8523)).toBe(85); // 1 kWh at 0.8523 = 85.23 fen
    expect(feeFen(1500, 8523)).toBe(128); // 127.845 -> 128
    expect(feeFen(10, 5000)).toBe(1); // exactly 0.5 fen rounds up
    expect(feeFen(10, 4999)).toBe(0); // 0.4999 fen rounds down
    expect(feeFen(0, 8523)).toBe(0);
  });

  it('bills an overnight bus session across midnight by band', () => {
    // 22:00 -> 06:00 local, 240 kWh at a constant rate: 1 h normal, 1 h valley, 6 h deep valley.
    const readings: MeterReading[] = [
      { at: at('2026-11-20T14:00:00Z'), energyWh: 1_000_000 },
      { at: at('2026-11-20T22:00:00Z'), energyWh: 1_240_000 },
    ];
    const price = priceSession(fiveBands, readings, TZ);
    expect(price.energyWh).toBe(240_000);
    expect(price.bands.normal).toEqual({ energyWh: 30_000, electricityFen: 1920, serviceFen: 1800 });
    expect(price.bands.valley).toEqual({ energyWh: 30_000, electricityFen: 960, serviceFen: 1200 });
    expect(price.bands.deepValley).toEqual({ energyWh: 180_000, electricityFen: 3780, serviceFen: 7200 });
    expect(price.totalFen).toBe(1920 + 1800 + 960 + 1200 + 3780 + 7200);
  });

  it('follows the meter samples: energy drawn in the peak band is billed at peak price', () => {
    // 09:00 -> 11:00 local; 10 kWh before 10:00 (normal), 50 kWh after (peak).
    const readings: MeterReading[] = [
      { at: at('2026-11-20T01:00:00Z'), energyWh: 0 },
      { at: at('2026-11-20T02:00:00Z'), energyWh: 10_000 },
      { at: at('2026-11-20T03:00:00Z'), energyWh: 60_000 },
    ];
    const price = priceSession(fiveBands, readings, TZ);
    expect(price.bands.normal.energyWh).toBe(10_000);
    expect(price.bands.peak).toEqual({ energyWh: 50_000, electricityFen: 4262, serviceFen: 4000 }); // 50 x 0.8523 = 42.615
  });

  it('refuses readings that go backwards', () => {
    const readings = [
      { at: 0, energyWh: 10 },
      { at: 1000, energyWh: 5 },
    ];
    expect(() => priceSession(fiveBands, readings, TZ)).toThrow('meter register decreased');
  });
});

/**
 * An independent oracle: walks each meter interval minute by minute on the fixed +08:00 clock of
 * Asia/Shanghai, and applies the documented rules with its own arithmetic.
 */
function oracle(plan: PricePlan, readings: MeterReading[]) {
  const table = stageIndexByMinute(plan.stages);
  const OFFSET = 8 * 3_600_000;
  const energy = new Array<number>(plan.stages.length).fill(0);
  for (let i = 1; i < readings.length; i++) {
    const { at: a, energyWh: ea } = readings[i - 1];
    const { at: b, energyWh: eb } = readings[i];
    const delta = eb - ea;
    if (delta === 0) continue;
    const minuteOf = (t: number) =>
      Math.floor(((((t + OFFSET) % 86_400_000) + 86_400_000) % 86_400_000) / 60_000);
    if (a === b) {
      energy[table[minuteOf(a)]] += delta;
      continue;
    }
    const overlap = new Array<number>(plan.stages.length).fill(0);
    const order: number[] = [];
    for (let t = a; t < b;) {
      const next = Math.min(b, (Math.floor(t / 60_000) + 1) * 60_000);
      const s = table[minuteOf(t)];
      if (!order.includes(s)) order.push(s);
      overlap[s] += next - t;
      t = next;
    }
    const total = BigInt(b - a);
    const exact = overlap.map((o) => BigInt(delta) * BigInt(o));
    const shares = exact.map((x) => Number(x / total));
    let left = delta - shares.reduce((x, y) => x + y, 0);
    const candidates = order.slice().sort((p, q) => {
      const rp = exact[p] % total;
      const rq = exact[q] % total;
      return rp === rq ? order.indexOf(p) - order.indexOf(q) : rp > rq ? -1 : 1;
    });
    for (const s of candidates) {
      if (left === 0) break;
      shares[s] += 1;
      left -= 1;
    }
    shares.forEach((wh, s) => (energy[s] += wh));
  }
  const fen = (wh: number, price: number) => Number((BigInt(wh) * BigInt(price) * 2n + 100_000n) / 200_000n);
  const total = plan.stages.reduce(
    (sum, s, i) => sum + fen(energy[i], s.electricityPrice) + fen(energy[i], s.serviceFee),
    0,
  );
  return { energy, total };
}

const planArb: fc.Arbitrary<PricePlan> = fc
  .tuple(
    fc.uniqueArray(fc.integer({ min: 1, max: 1439 }), { minLength: 0, maxLength: 7 }),
    fc.integer({ min: 0, max: 1439 }),
  )
  .chain(([cuts, rotation]) => {
    // Cut the day into consecutive stages, then rotate so that one stage may wrap midnight.
    const bounds = [0, ...cuts.sort((a, b) => a - b), 1440];
    const n = bounds.length - 1;
    return fc
      .array(
        fc.record({
          stageType: fc.constantFrom(...STAGE_TYPES),
          electricityPrice: fc.integer({ min: 0, max: 20_000 }),
          serviceFee: fc.integer({ min: 0, max: 10_000 }),
        }),
        { minLength: n, maxLength: n },
      )
      .map((prices) => ({
        stages: prices.map((p, i) => {
          const shift = (m: number) => (m + rotation) % 1440 || (m === 0 ? 0 : 1440);
          const start = (bounds[i] + rotation) % 1440;
          const end = shift(bounds[i + 1]);
          return { ...p, startMinute: start, endMinute: end === start ? (end + 1440) % 1441 : end };
        }),
      }));
  })
  .filter((plan) => pricePlanProblems(plan.stages).length === 0);

const sessionArb: fc.Arbitrary<MeterReading[]> = fc
  .record({
    start: fc.integer({ min: Date.parse('2026-03-01T00:00:00Z'), max: Date.parse('2026-03-04T00:00:00Z') }),
    duration: fc.integer({ min: 0, max: 30 * 3_600_000 }),
    meterStart: fc.integer({ min: 0, max: 50_000_000 }),
    steps: fc.array(
      fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 60_000 })),
      { maxLength: 40 },
    ),
    lastStep: fc.integer({ min: 0, max: 60_000 }),
  })
  .map(({ start, duration, meterStart, steps, lastStep }) => {
    const times = steps.map(([f]) => start + Math.floor(f * duration)).sort((a, b) => a - b);
    let energy = meterStart;
    const readings: MeterReading[] = [{ at: start, energyWh: meterStart }];
    times.forEach((t, i) => {
      energy += steps[i][1];
      readings.push({ at: t, energyWh: energy });
    });
    readings.push({ at: start + duration, energyWh: energy + lastStep });
    return readings;
  });

describe('pricing oracle (property-based)', () => {
  it('agrees with the independent oracle to the Wh and the fen on generated sessions', () => {
    fc.assert(
      fc.property(planArb, sessionArb, (plan, readings) => {
        const price = priceSession(plan, readings, TZ);
        const expected = oracle(plan, readings);
        expect(price.stages.map((s) => s.energyWh)).toEqual(expected.energy);
        expect(price.totalFen).toBe(expected.total);
        expect(price.energyWh).toBe(readings[readings.length - 1].energyWh - readings[0].energyWh);
      }),
      { numRuns: 3000 },
    );
  });
});
