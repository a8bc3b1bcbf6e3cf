import { DepotClock } from './depot-clock';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-11-23T02:00:00Z');

/** A clock whose real time the test moves by hand. */
function manual(start = T0) {
  let real = start;
  return {
    realNow: () => real,
    advance: (ms: number) => {
      real += ms;
    },
    get real() {
      return real;
    },
  };
}

describe('DepotClock', () => {
  it('starts in the past, runs fast, catches up with real time and then runs at 1x', () => {
    const real = manual();
    const clock = new DepotClock({ startAt: T0 - 12 * HOUR, speed: 121, realNow: real.realNow });
    expect(clock.now()).toBe(T0 - 12 * HOUR);
    real.advance(60_000); // one real minute: two depot hours
    expect(clock.now()).toBe(T0 - 12 * HOUR + 121 * 60_000);
    expect(clock.caughtUp).toBe(false);
    // 12 h of lag shrink by 120 s per real second: caught up after 360 real seconds.
    expect(clock.caughtUpAt).toBe(T0 + 360_000);
    real.advance(300_000 - 1);
    expect(clock.now()).toBeLessThan(real.real);
    real.advance(1);
    expect(clock.now()).toBe(real.real);
    expect(clock.caughtUp).toBe(true);
    real.advance(10 * HOUR);
    expect(clock.now()).toBe(real.real);
  });

  it('never shows a time later than the real clock, whatever the speed and the start', () => {
    for (const [lagMs, speed] of [
      [0, 120],
      [1, 1_000_000],
      [5 * HOUR, 7],
      [30 * HOUR, 360],
      [-2 * HOUR, 120],
      [3 * HOUR, 0.5],
    ]) {
      const real = manual();
      const clock = new DepotClock({ startAt: T0 - lagMs, speed, realNow: real.realNow });
      let previous = -Infinity;
      for (let step = 0; step < 2_000; step++) {
        const now = clock.now();
        expect(now).toBeLessThanOrEqual(real.real);
        expect(now).toBeGreaterThanOrEqual(previous);
        previous = now;
        real.advance(1_234);
      }
    }
  });

  it('takes a start in the future as now, and a speed below 1 as 1 (then it never catches up)', () => {
    const real = manual();
    const ahead = new DepotClock({ startAt: T0 + HOUR, speed: 120, realNow: real.realNow });
    expect(ahead.now()).toBe(T0);
    expect(ahead.caughtUp).toBe(true);
    const slow = new DepotClock({ startAt: T0 - HOUR, speed: 0.5, realNow: real.realNow });
    real.advance(HOUR);
    expect(slow.now()).toBe(T0);
    expect(slow.caughtUp).toBe(false);
    expect(slow.realTimeOf(T0 + HOUR)).toBe(T0 + 2 * HOUR);
  });

  it('maps depot times to the real times they will be shown at, on both sides of the catch-up', () => {
    const real = manual();
    const clock = new DepotClock({ startAt: T0 - 10 * HOUR, speed: 101, realNow: real.realNow });
    // Catch-up after 10 h / 100 = 6 real minutes.
    expect(clock.realTimeOf(T0 - 10 * HOUR)).toBe(T0);
    expect(clock.realTimeOf(T0 - 10 * HOUR + 101 * 60_000)).toBe(T0 + 60_000);
    expect(clock.realTimeOf(T0 + 6 * 60_000)).toBe(T0 + 6 * 60_000);
    expect(clock.realTimeOf(T0 + HOUR)).toBe(T0 + HOUR);
    expect(clock.realDelayUntil(T0 - 10 * HOUR + 101 * 30_000)).toBe(30_000);
    real.advance(60_000);
    expect(clock.realDelayUntil(T0 - 10 * HOUR)).toBe(0);
  });

  it('sleeps in real time for a span of depot time, and gives up early when stopped', async () => {
    const clock = new DepotClock({ startAt: Date.now() - HOUR, speed: 3_600 });
    const started = Date.now();
    await clock.sleepFor(90_000); // 90 depot seconds at 3600x: 25 ms
    expect(Date.now() - started).toBeLessThan(1_000);
    let stopped = false;
    setTimeout(() => (stopped = true), 30);
    const before = Date.now();
    await clock.sleepFor(10 * HOUR, () => stopped, 10);
    expect(Date.now() - before).toBeLessThan(1_000);
  });
});
