/**
 * When the demo depot's buses come in and how they charge, in depot time (see `DepotClock`): most
 * return in the evening and charge into the night; during the day a bus that falls below its
 * supplementary charging SoC threshold comes back for a top-up; each stays plugged in a little after
 * charging, now and then long enough to pay an occupation fee. Whatever the hour the demo starts at,
 * some buses are on their guns at once (`openingVisits`).
 */
import { instantOf, localDay } from '@voltdepot/server-billing';

export type Random = () => number;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Evening returns: from 17:00 business time, most between 17:30 and 21:00, the last by 23:00. */
const EVENING_FROM_MINUTE = 17 * 60;
const EVENING_MODE_HOURS = 1.25;
const EVENING_SPAN_HOURS = 6;
/** Buses leave at 06:00 nearly full; from 22:00 the ones back charge through the night. */
const DEPARTURE_MINUTE = 6 * 60;
const DEPARTURE_SOC = 95;
const NIGHT_FROM_MINUTE = 22 * 60;
/** A bus's SoC falls by this much per hour out (its day's routes and traffic). */
const DRAIN_PER_HOUR = { min: 6, max: 16 };
/** Depot hours a midday top-up takes, from the threshold to 80-90 %. */
const TOP_UP_HOURS = 1.5;

/** What the schedule needs of a bus's vehicle record. */
export type DemoBus = {
  /** Day charging allowed (vehicle `day_charging`): it comes back for top-ups below its threshold. */
  dayCharging: boolean;
  /** Supplementary charging SoC threshold (vehicle `supplementary_soc`, %). */
  supplementarySoc: number;
};
export const DEFAULT_DEMO_BUS: DemoBus = { dayCharging: true, supplementarySoc: 30 };

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

export type Arrival = { at: number; kind: 'evening' | 'midday' | 'night' };

/** Minutes since local midnight of a depot instant. */
function minuteOfDay(ms: number, timeZone: string): number {
  return (ms - instantOf(localDay(ms, timeZone), 0, timeZone)) / MINUTE;
}

/**
 * When a bus out since 06:00 drops below its supplementary SoC threshold on a day (depot ms after
 * departure), drawing that day's consumption; undefined when it stays above it until the evening.
 */
function topUpDueAfterDeparture(bus: DemoBus, random: Random): number | undefined {
  const drain = between(DRAIN_PER_HOUR.min, DRAIN_PER_HOUR.max, random);
  const dueMs = ((DEPARTURE_SOC - bus.supplementarySoc) / drain) * HOUR;
  return dueMs < (EVENING_FROM_MINUTE - DEPARTURE_MINUTE) * MINUTE ? dueMs : undefined;
}

/**
 * A bus's next return to the depot after `afterMs` (depot time): evening-weighted, and a midday top-up
 * on the days it falls below its supplementary SoC threshold (day-charging buses only).
 */
export function nextArrival(
  afterMs: number,
  timeZone: string,
  random: Random = Math.random,
  bus: DemoBus = DEFAULT_DEMO_BUS,
): Arrival {
  for (let day = localDay(afterMs, timeZone); ; day++) {
    const arrivals: Arrival[] = [];
    const due = bus.dayCharging ? topUpDueAfterDeparture(bus, random) : undefined;
    if (due !== undefined)
      arrivals.push({ at: instantOf(day, DEPARTURE_MINUTE, timeZone) + due, kind: 'midday' });
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

/**
 * State of charge on arrival and at the end: a day's run back in the evening (a third ran short ones),
 * a top-up from just below the bus's threshold to 80-90 %, the night's charge to full.
 */
export function visitOf(
  kind: Arrival['kind'],
  random: Random = Math.random,
  bus: DemoBus = DEFAULT_DEMO_BUS,
): Visit {
  if (kind === 'midday')
    return {
      startSoc: Math.max(5, Math.round(bus.supplementarySoc - between(0, 4, random))),
      targetSoc: Math.round(between(80, 90, random)),
    };
  if (kind === 'night')
    return { startSoc: Math.round(between(20, 70, random)), targetSoc: Math.round(between(92, 100, random)) };
  const shortDay = random() < 1 / 3;
  return {
    startSoc: Math.round(shortDay ? between(55, 75, random) : between(15, 45, random)),
    targetSoc: Math.round(between(90, 100, random)),
  };
}

/** A bus already on its gun when the demo's clock starts, and the visit it is in the middle of. */
export type OpeningVisit = Arrival & Visit;

/** At least this many buses charge at the start, whatever the hour. */
export const MIN_OPENING_SESSIONS = 4;
/** Opening sessions start within this many depot ms of the clock's start (at most as many real ms). */
const OPENING_SPREAD_MS = 20_000;

/**
 * Which buses are at the depot charging when the demo's clock starts at `startMs` (index by index with
 * `buses`; undefined: out, or full): in the night most buses charge; in the evening those already back;
 * in the day those below their supplementary SoC threshold, topping up. When that makes fewer than
 * `MIN_OPENING_SESSIONS` (early morning: everyone is out nearly full), the buses with the least charge
 * come back for a top-up, so a demo started at any hour shows guns charging within a minute.
 */
export function openingVisits(
  startMs: number,
  timeZone: string,
  buses: readonly DemoBus[],
  random: Random = Math.random,
): (OpeningVisit | undefined)[] {
  const minute = minuteOfDay(startMs, timeZone);
  const at = () => startMs + Math.round(random() * OPENING_SPREAD_MS);
  const night = minute >= NIGHT_FROM_MINUTE || minute < DEPARTURE_MINUTE;
  const evening = !night && minute >= EVENING_FROM_MINUTE;
  /** SoC now of a bus out since 06:00 (day) and whether it is topping up. */
  const socNow: number[] = [];
  const visits = buses.map((bus, i): OpeningVisit | undefined => {
    if (night)
      return random() < 0.85 ? { at: at(), kind: 'night', ...visitOf('night', random, bus) } : undefined;
    if (evening) {
      const hoursBack = (minute - EVENING_FROM_MINUTE) / 60;
      const back = random() < triangularCdf(hoursBack, 0, EVENING_MODE_HOURS, EVENING_SPAN_HOURS);
      return back ? { at: at(), kind: 'evening', ...visitOf('evening', random, bus) } : undefined;
    }
    const outMs = (minute - DEPARTURE_MINUTE) * MINUTE;
    const drain = between(DRAIN_PER_HOUR.min, DRAIN_PER_HOUR.max, random);
    const dueMs = ((DEPARTURE_SOC - bus.supplementarySoc) / drain) * HOUR;
    socNow[i] = Math.max(bus.supplementarySoc, DEPARTURE_SOC - (drain * outMs) / HOUR);
    if (!bus.dayCharging || outMs < dueMs || outMs >= dueMs + TOP_UP_HOURS * HOUR) return undefined;
    // Part-way through its top-up: it started just below the threshold a while ago.
    const topUp = visitOf('midday', random, bus);
    const done = (outMs - dueMs) / (TOP_UP_HOURS * HOUR);
    const startSoc = Math.round(topUp.startSoc + done * (topUp.targetSoc - topUp.startSoc) * 0.8);
    return { at: at(), kind: 'midday', startSoc, targetSoc: topUp.targetSoc };
  });
  const missing = MIN_OPENING_SESSIONS - visits.filter(Boolean).length;
  if (missing > 0) {
    const lowest = buses
      .map((_, i) => i)
      .filter((i) => !visits[i])
      .sort((a, b) => (socNow[a] ?? 50) - (socNow[b] ?? 50))
      .slice(0, missing);
    for (const i of lowest) {
      const startSoc = Math.round(socNow[i] ?? between(40, 60, random));
      visits[i] = { at: at(), kind: 'midday', startSoc, targetSoc: Math.max(startSoc + 5, 90) };
    }
  }
  return visits;
}

/** P(X <= x) of the triangular distribution on [min, max] peaking at `mode`. */
export function triangularCdf(x: number, min: number, mode: number, max: number): number {
  if (x <= min) return 0;
  if (x >= max) return 1;
  return x <= mode
    ? ((x - min) * (x - min)) / ((max - min) * (mode - min))
    : 1 - ((max - x) * (max - x)) / ((max - min) * (max - mode));
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
