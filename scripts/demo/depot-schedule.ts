/**
 * When the demo depot's buses come in and how they charge, in depot time (see `DepotClock`): most
 * return in the evening, some come back at midday for a top-up; each stays plugged in a little after
 * charging, now and then long enough to pay an occupation fee.
 */
import { instantOf, localDay } from '@voltdepot/server-billing';

export type Random = () => number;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Evening returns: from 17:00 business time, most between 17:30 and 21:00, the last by 23:00. */
const EVENING_FROM_MINUTE = 17 * 60;
const EVENING_MODE_HOURS = 1.25;
const EVENING_SPAN_HOURS = 6;
/** A midday top-up between 11:00 and 14:00 for about a third of the buses. */
const MIDDAY_FROM_MINUTE = 11 * 60;
const MIDDAY_SPAN_HOURS = 3;
const MIDDAY_SHARE = 0.35;

export const between = (min: number, max: number, random: Random = Math.random): number =>
  min + random() * (max - min);

/** A triangular distribution on [min, max] with its peak at `mode`. */
export function triangular(min: number, mode: number, max: number, random: Random = Math.random): number {
  const u = random();
  const split = (mode - min) / (max - min);
  return u < split
    ? min + Math.sqrt(u * (max - min) * (mode - min))
    : max - Math.sqrt((1 - u) * (max - min) * (max - mode));
}

/**
 * Where the demo's depot clock starts: 17:00 business time on the latest day that leaves at least
 * `minReplayMs` to replay, so the newcomer always sees an evening of arrivals (4 to 28 depot hours:
 * 2 to 14 real minutes at 120x).
 */
export function replayStart(nowMs: number, timeZone: string, minReplayMs = 4 * HOUR): number {
  for (let day = localDay(nowMs, timeZone); ; day--) {
    const at = instantOf(day, EVENING_FROM_MINUTE, timeZone);
    if (at <= nowMs - minReplayMs) return at;
  }
}

/**
 * The depot clock's start: 17:00 business time with at least 4 h to replay (DEMO_REPLAY_HOURS: that many
 * hours before now instead), but after anything the demo piles reported in an earlier run.
 */
export function demoClockStart(
  nowMs: number,
  timeZone: string,
  replayHours: number | undefined,
  lastReportedMs: number | undefined,
): number {
  const from = replayHours === undefined ? replayStart(nowMs, timeZone) : nowMs - replayHours * HOUR;
  return Math.min(nowMs, Math.max(from, (lastReportedMs ?? -Infinity) + 1_000));
}

export type Arrival = { at: number; kind: 'evening' | 'midday' };

/** A bus's next return to the depot after `afterMs` (depot time): evening-weighted, midday top-ups. */
export function nextArrival(afterMs: number, timeZone: string, random: Random = Math.random): Arrival {
  for (let day = localDay(afterMs, timeZone); ; day++) {
    const arrivals: Arrival[] = [];
    if (random() < MIDDAY_SHARE)
      arrivals.push({
        at: instantOf(day, MIDDAY_FROM_MINUTE, timeZone) + random() * MIDDAY_SPAN_HOURS * HOUR,
        kind: 'midday',
      });
    arrivals.push({
      at:
        instantOf(day, EVENING_FROM_MINUTE, timeZone) +
        triangular(0, EVENING_MODE_HOURS, EVENING_SPAN_HOURS, random) * HOUR,
      kind: 'evening',
    });
    const next = arrivals.find((a) => a.at > afterMs);
    if (next) return { ...next, at: Math.round(next.at) };
  }
}

export type Visit = { startSoc: number; targetSoc: number };

/** State of charge on arrival and at the end: a day's run back in the evening (a third ran short ones). */
export function visitOf(kind: Arrival['kind'], random: Random = Math.random): Visit {
  if (kind === 'midday')
    return { startSoc: Math.round(between(40, 60, random)), targetSoc: Math.round(between(75, 90, random)) };
  const shortDay = random() < 1 / 3;
  return {
    startSoc: Math.round(shortDay ? between(55, 75, random) : between(15, 45, random)),
    targetSoc: Math.round(between(90, 100, random)),
  };
}

/**
 * A bus's charger limit (W): depot chargers deliver 60 to 180 kW to a bus, never more than the gun's
 * rated power.
 */
export function sessionPowerW(gunRatedPowerW: number, random: Random = Math.random): number {
  const limit = Math.min(180_000, gunRatedPowerW);
  return Math.round(between(Math.min(60_000, limit), limit, random) / 1_000) * 1_000;
}

/**
 * How long (depot ms) the bus stays plugged in after its session: most drivers move it within a quarter
 * of an hour, about one in four leaves it until the next shift change (20 to 75 minutes).
 */
export function dwellAfterStopMs(random: Random = Math.random): number {
  return Math.round(random() < 0.25 ? between(20, 75, random) * MINUTE : between(2, 14, random) * MINUTE);
}
