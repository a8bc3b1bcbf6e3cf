/**
 * The business time zone: the local day of order ranges and price stages, and the zone the lists show
 * their times in. The platform keeps it as the system setting `businessTimeZone` (not public, so the
 * console is not given it at start-up); its default is kept here, in one place.
 */
export const BUSINESS_TIME_ZONE = 'Asia/Shanghai';

type WallClock = { year: number; month: number; day: number; hour: number; minute: number; second: number };

/** The wall clock in `timeZone` (the browser's when none) at instant `ms`. */
export function wallClockOf(ms: number, timeZone?: string): WallClock {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, Number(p.value)]),
  );
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour,
    minute: parts.minute,
    second: parts.second,
  };
}

const utcOf = (w: WallClock) => Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);

/** The instant at which the wall clock in `timeZone` shows `w` (days roll over: day 0 is the day before). */
export function instantOfWallClock(w: WallClock, timeZone: string): number {
  const asUtc = utcOf(w);
  // Two passes settle the offset also across a daylight-saving change.
  let ms = asUtc - (utcOf(wallClockOf(asUtc, timeZone)) - asUtc);
  ms = asUtc - (utcOf(wallClockOf(ms, timeZone)) - ms);
  return ms;
}
