import fc from 'fast-check';
import { occupationFee, type OccupationFeeSettings } from './occupation-fee';

const depot: OccupationFeeSettings = {
  enabled: true,
  feeScope: 'external',
  freeMinutes: 30,
  intervalMinutes: 15,
  unitPriceFen: 100,
  cappedAmountFen: 5000,
};
const at = (minutes: number, seconds = 0) =>
  new Date(Date.UTC(2026, 10, 21, 22, 0) + minutes * 60_000 + seconds * 1000);

describe('occupationFee', () => {
  it.each([
    ['released within the free minutes', 30, 0, 0, 0],
    ['one second beyond the free minutes starts an interval', 30, 1, 1, 100],
    ['exactly one interval beyond', 45, 0, 1, 100],
    ['a started second interval', 45, 1, 2, 200],
    ['an evening of occupation, capped', 30 + 15 * 80, 0, 80, 5000],
  ])('%s', (_name, minutes, seconds, intervals, fen) => {
    expect(occupationFee(depot, at(0), at(minutes, seconds))).toEqual({
      occupiedMs: (minutes * 60 + seconds) * 1000,
      billableIntervals: intervals,
      amountFen: fen,
    });
  });

  it('charges nothing when the station does not charge occupation fees', () => {
    expect(occupationFee({ ...depot, enabled: false }, at(0), at(600))).toEqual({
      occupiedMs: 600 * 60_000,
      billableIntervals: 0,
      amountFen: 0,
    });
  });

  it('has no cap when the capped amount is 0', () => {
    expect(occupationFee({ ...depot, cappedAmountFen: 0 }, at(0), at(30 + 15 * 80)).amountFen).toBe(8000);
  });

  it('counts a release stamped before the stop as no occupation', () => {
    expect(occupationFee(depot, at(10), at(0))).toEqual({
      occupiedMs: 0,
      billableIntervals: 0,
      amountFen: 0,
    });
  });

  it('refuses an interval that is not a positive whole number of minutes', () => {
    expect(() => occupationFee({ ...depot, intervalMinutes: 0 }, at(0), at(60))).toThrow(
      'occupation interval must be a whole number of minutes >= 1',
    );
  });

  it('agrees with a second-by-second walk over thousands of generated occupations', () => {
    fc.assert(
      fc.property(
        fc.record({
          freeMinutes: fc.integer({ min: 0, max: 180 }),
          intervalMinutes: fc.integer({ min: 1, max: 120 }),
          unitPriceFen: fc.integer({ min: 0, max: 2000 }),
          cappedAmountFen: fc.integer({ min: 0, max: 20_000 }),
        }),
        fc.integer({ min: 0, max: 24 * 60 * 60 }),
        (s, occupiedSeconds) => {
          const settings = { ...s, enabled: true, feeScope: 'internal' as const };
          // Oracle: walk the occupation second by second; a new interval starts at each interval boundary
          // passed after the free minutes.
          let intervals = 0;
          for (let second = 0; second < occupiedSeconds; second++) {
            const beyond = second - settings.freeMinutes * 60;
            if (beyond >= 0 && beyond % (settings.intervalMinutes * 60) === 0) intervals++;
          }
          let fen = intervals * settings.unitPriceFen;
          if (settings.cappedAmountFen > 0 && fen > settings.cappedAmountFen) fen = settings.cappedAmountFen;
          const fee = occupationFee(settings, at(0), at(0, occupiedSeconds));
          return fee.billableIntervals === intervals && fee.amountFen === fen;
        },
      ),
      { numRuns: 2000 },
    );
  });
});
