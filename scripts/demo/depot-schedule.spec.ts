import {
  demoClockStart,
  dwellAfterStopMs,
  MIN_OPENING_SESSIONS,
  nextArrival,
  openingVisits,
  replayStart,
  sessionPowerW,
  triangular,
  visitOf,
} from './depot-schedule';

const TZ = 'Asia/Shanghai';
const HOUR = 3_600_000;
/** Shanghai wall clock as an instant (+08:00, no DST). */
const local = (wall: string) => Date.parse(`${wall}+08:00`);
const hourOf = (ms: number) => new Date(ms + 8 * HOUR).getUTCHours();

/** A seeded generator, so the distributions are checked on the same draws every run. */
function seeded(seed = 42): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe('demo depot schedule', () => {
  it.each([
    ['2026-11-23T09:40:00', '2026-11-22T17:00:00'],
    ['2026-11-23T20:59:59', '2026-11-22T17:00:00'],
    ['2026-11-23T21:00:00', '2026-11-23T17:00:00'],
    ['2026-11-23T23:30:00', '2026-11-23T17:00:00'],
    ['2026-11-24T00:10:00', '2026-11-23T17:00:00'],
  ])('replays from 17:00 business time with at least 4 h to go (now %s: from %s)', (now, from) => {
    expect(replayStart(local(now), TZ)).toBe(local(from));
  });

  it('starts the clock after whatever the piles reported in an earlier run, and never after now', () => {
    const now = local('2026-11-23T09:40:00');
    expect(demoClockStart(now, TZ, undefined, undefined)).toBe(local('2026-11-22T17:00:00'));
    expect(demoClockStart(now, TZ, 3, undefined)).toBe(now - 3 * HOUR);
    expect(demoClockStart(now, TZ, 0, undefined)).toBe(now);
    // An earlier run got as far as 02:00 depot time: carry on from there.
    expect(demoClockStart(now, TZ, undefined, local('2026-11-23T02:00:00'))).toBe(
      local('2026-11-23T02:00:01'),
    );
    expect(demoClockStart(now, TZ, undefined, local('2026-11-21T02:00:00'))).toBe(
      local('2026-11-22T17:00:00'),
    );
    expect(demoClockStart(now, TZ, 5, now)).toBe(now);
  });

  it('sends most buses back in the evening, some for a daytime top-up, always after the time asked', () => {
    const random = seeded();
    const hours = new Map<number, number>();
    let evening = 0;
    let after = local('2026-11-22T17:00:00');
    for (let i = 0; i < 2_000; i++) {
      const arrival = nextArrival(after, TZ, random);
      expect(arrival.at).toBeGreaterThan(after);
      const hour = hourOf(arrival.at);
      hours.set(hour, (hours.get(hour) ?? 0) + 1);
      if (arrival.kind === 'evening') {
        evening++;
        expect(hour).toBeGreaterThanOrEqual(17);
        expect(hour).toBeLessThan(23);
      } else {
        // Out from 06:00, below a 30 % threshold after 4 to 11 hours.
        expect(hour).toBeGreaterThanOrEqual(10);
        expect(hour).toBeLessThan(17);
      }
      after = arrival.at + 3 * HOUR;
    }
    // Day-charging buses top up on most days: about half the returns are evening ones.
    expect(evening / 2_000).toBeGreaterThan(0.4);
    // Evening-weighted: 17:00-21:00 carries far more than 21:00-23:00.
    const early = [17, 18, 19, 20].reduce((n, h) => n + (hours.get(h) ?? 0), 0);
    const late = [21, 22].reduce((n, h) => n + (hours.get(h) ?? 0), 0);
    expect(early).toBeGreaterThan(3 * late);
  });

  it('tops a bus up at midday only when it allows day charging, from just below its threshold', () => {
    const random = seeded(5);
    const after = local('2026-11-22T07:00:00');
    const noDay = { dayCharging: false, supplementarySoc: 30 };
    for (let i = 0; i < 200; i++) expect(nextArrival(after, TZ, random, noDay).kind).toBe('evening');
    const bus = { dayCharging: true, supplementarySoc: 40 };
    const kinds = Array.from({ length: 400 }, () => nextArrival(after, TZ, random, bus).kind);
    expect(kinds.filter((k) => k === 'midday').length).toBeGreaterThan(300);
    for (let i = 0; i < 200; i++) {
      const { startSoc, targetSoc } = visitOf('midday', random, bus);
      expect(startSoc).toBeLessThanOrEqual(40);
      expect(startSoc).toBeGreaterThanOrEqual(36);
      expect(targetSoc).toBeGreaterThanOrEqual(80);
    }
  });

  it.each(Array.from({ length: 48 }, (_, i) => i * 30))(
    'puts buses on their guns within 20 s of a start at any hour (minute %i of the day)',
    (minute) => {
      const random = seeded(minute + 1);
      const start = local('2026-11-23T00:00:00') + minute * 60_000;
      const buses = Array.from({ length: 40 }, (_, i) => ({
        dayCharging: true,
        supplementarySoc: 25 + (i % 4) * 5,
      }));
      const visits = openingVisits(start, TZ, buses, random);
      expect(visits).toHaveLength(40);
      const charging = visits.filter((v) => v !== undefined);
      expect(charging.length).toBeGreaterThanOrEqual(MIN_OPENING_SESSIONS);
      for (const v of charging) {
        expect(v.at).toBeGreaterThanOrEqual(start);
        expect(v.at).toBeLessThanOrEqual(start + 20_000);
        expect(v.startSoc).toBeGreaterThanOrEqual(5);
        expect(v.targetSoc).toBeGreaterThan(v.startSoc);
        expect(v.targetSoc).toBeLessThanOrEqual(100);
      }
      const hour = minute / 60;
      const kinds = new Set(charging.map((v) => v.kind));
      if (hour >= 22 || hour < 6) {
        // The night: most of the fleet charges.
        expect(kinds).toEqual(new Set(['night']));
        expect(charging.length).toBeGreaterThan(25);
      } else if (hour >= 17) {
        // Back from the day's runs; right after 17:00 few are, and a low bus tops up meanwhile.
        expect(kinds.has('night')).toBe(false);
        if (hour >= 18) expect(kinds).toEqual(new Set(['evening']));
      } else expect(kinds).toEqual(new Set(['midday']));
    },
  );

  it('tops up in the afternoon the buses below their threshold, more than the minimum', () => {
    const random = seeded(14);
    const buses = Array.from({ length: 40 }, () => ({ dayCharging: true, supplementarySoc: 30 }));
    const visits = openingVisits(local('2026-11-23T14:00:00'), TZ, buses, random);
    expect(visits.filter(Boolean).length).toBeGreaterThan(MIN_OPENING_SESSIONS);
    // Buses that may not charge by day stay out.
    const out = openingVisits(
      local('2026-11-23T14:00:00'),
      TZ,
      buses.map(() => ({ dayCharging: false, supplementarySoc: 30 })),
      random,
    );
    expect(out.filter(Boolean).length).toBe(MIN_OPENING_SESSIONS);
  });

  it('draws a triangular distribution within its bounds, peaking at the mode', () => {
    const random = seeded(7);
    const draws = Array.from({ length: 5_000 }, () => triangular(0, 1.25, 6, random));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThanOrEqual(6);
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    expect(mean).toBeCloseTo((0 + 1.25 + 6) / 3, 1);
  });

  it('charges within the gun rating, from a plausible SoC to a higher target', () => {
    const random = seeded(3);
    for (let i = 0; i < 500; i++) {
      const power = sessionPowerW(120_000, random);
      expect(power).toBeGreaterThanOrEqual(60_000);
      expect(power).toBeLessThanOrEqual(120_000);
      expect(sessionPowerW(250_000, random)).toBeLessThanOrEqual(180_000);
      expect(sessionPowerW(40_000, random)).toBe(40_000);
      for (const kind of ['evening', 'midday'] as const) {
        const { startSoc, targetSoc } = visitOf(kind, random);
        expect(startSoc).toBeGreaterThanOrEqual(15);
        expect(targetSoc).toBeGreaterThan(startSoc);
        expect(targetSoc).toBeLessThanOrEqual(100);
      }
    }
  });

  it('keeps the bus plugged in a few minutes after charging, sometimes past a quarter hour', () => {
    const random = seeded(11);
    const dwells = Array.from({ length: 1_000 }, () => dwellAfterStopMs(random) / 60_000);
    expect(Math.min(...dwells)).toBeGreaterThanOrEqual(2);
    expect(Math.max(...dwells)).toBeLessThanOrEqual(75);
    const long = dwells.filter((m) => m > 15).length;
    expect(long).toBeGreaterThan(150);
    expect(long).toBeLessThan(350);
  });
});
