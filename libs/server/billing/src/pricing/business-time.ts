/**
 * Wall-clock arithmetic in the business time zone (default Asia/Shanghai). Price stages are defined
 * in local time of day; meter readings are instants.
 */

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** A cached formatter of the zone's wall-clock parts (year to second, 24-hour). */
export function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

const offsets = new Map<string, number>();
const QUARTER_HOUR_MS = 900_000;

/**
 * Offset of the zone from UTC at an instant, in ms (Asia/Shanghai: +8 h). Zones change offset only on
 * quarter-hour boundaries, so the answer is memoised per quarter hour.
 */
export function zoneOffsetMs(instantMs: number, timeZone: string): number {
  const key = `${timeZone}|${Math.floor(instantMs / QUARTER_HOUR_MS)}`;
  const cached = offsets.get(key);
  if (cached !== undefined) return cached;
  if (offsets.size >= 200_000) offsets.clear();
  const offset = computeOffset(instantMs, timeZone);
  offsets.set(key, offset);
  return offset;
}

function computeOffset(instantMs: number, timeZone: string): number {
  const parts = formatter(timeZone).formatToParts(new Date(instantMs));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = new Date(0);
  // Not Date.UTC, which reads years 0-99 as 1900-1999.
  wall.setUTCFullYear(get('year'), get('month') - 1, get('day'));
  wall.setUTCHours(get('hour'), get('minute'), get('second'));
  return wall.getTime() - Math.floor(instantMs / 1000) * 1000;
}

/** Local calendar day number (days since 1970-01-01 in the zone) of an instant. */
export function localDay(instantMs: number, timeZone: string): number {
  return Math.floor((instantMs + zoneOffsetMs(instantMs, timeZone)) / DAY_MS);
}

const instants = new Map<string, number>();
const MAX_CACHED_INSTANTS = 200_000;

/** The instant at which local day `day` reaches `minute` (0..1440) in the zone (memoised: hot in settlement). */
export function instantOf(day: number, minute: number, timeZone: string): number {
  const key = `${timeZone}|${day}|${minute}`;
  const cached = instants.get(key);
  if (cached !== undefined) return cached;
  if (instants.size >= MAX_CACHED_INSTANTS) instants.clear();
  const instant = computeInstant(day, minute, timeZone);
  instants.set(key, instant);
  return instant;
}

function computeInstant(day: number, minute: number, timeZone: string): number {
  const wall = day * DAY_MS + minute * 60_000;
  // Two passes settle the offset that applies at the resulting instant (matters only around DST).
  let instant = wall - zoneOffsetMs(wall, timeZone);
  instant = wall - zoneOffsetMs(instant, timeZone);
  return instant;
}
