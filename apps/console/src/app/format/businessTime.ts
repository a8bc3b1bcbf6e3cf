/**
 * The business time zone: every time the console shows and every default range it builds is in this
 * zone, whatever zone the browser is in (issue #24). The platform keeps it as the public setting
 * `businessTimeZone`; `PlatformSettingsProvider` applies it before anything renders (see
 * `applyBusinessTimeZone`), and this default stands until then or when the setting is missing.
 */
export const DEFAULT_BUSINESS_TIME_ZONE = 'Asia/Shanghai';

let current = DEFAULT_BUSINESS_TIME_ZONE;

/** An IANA zone name this browser knows (`Asia/Shanghai`, `UTC`). */
export function isTimeZone(value: string | undefined): value is string {
  if (!value || !/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The business time zone of this session (the platform setting once applied). */
export function businessTimeZone(): string {
  return current;
}

/**
 * Makes `zone` the business time zone of every helper here (an unknown zone keeps the default). Called
 * by `PlatformSettingsProvider` with the platform setting, like dayjs's locale, before children render.
 */
export function applyBusinessTimeZone(zone: string | undefined): void {
  current = isTimeZone(zone) ? zone : DEFAULT_BUSINESS_TIME_ZONE;
}

export type WallClock = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
};

/** The wall clock in `timeZone` (the business time zone when none) at instant `ms`. */
export function wallClockOf(ms: number, timeZone: string = businessTimeZone()): WallClock {
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

const utcOf = (w: WallClock) => {
  const d = new Date(0);
  // Not Date.UTC, which reads years 0-99 as 1900-1999.
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, 0);
  return d.getTime();
};

/**
 * The instant at which the wall clock in `timeZone` shows `w` (days and months roll over: day 0 is the
 * day before, month 13 January of the next year).
 */
export function instantOfWallClock(w: WallClock, timeZone: string = businessTimeZone()): number {
  const asUtc = utcOf(w);
  // Two passes settle the offset also across a daylight-saving change.
  let ms = asUtc - (utcOf(wallClockOf(asUtc, timeZone)) - asUtc);
  ms = asUtc - (utcOf(wallClockOf(ms, timeZone)) - ms);
  return ms;
}

/** The offset of `timeZone` from UTC at instant `ms`, in minutes (Shanghai: 480). */
export function offsetMinutesOf(ms: number, timeZone: string = businessTimeZone()): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return Math.round((utcOf(wallClockOf(whole, timeZone)) - whole) / 60_000);
}

/** `UTC+8`, `UTC-3:30`, `UTC`: the offset of `timeZone` at `ms`, as the zone hints show it. */
export function utcOffsetLabel(ms: number, timeZone: string = businessTimeZone()): string {
  const minutes = offsetMinutesOf(ms, timeZone);
  if (minutes === 0) return 'UTC';
  const abs = Math.abs(minutes);
  const rest = abs % 60;
  return `UTC${minutes < 0 ? '-' : '+'}${Math.floor(abs / 60)}${rest ? `:${String(rest).padStart(2, '0')}` : ''}`;
}

/** A period between two instants (epoch milliseconds), both inclusive, to the second. */
export type InstantRange = [start: number, end: number];

const startOfDay = (w: WallClock, dayShift = 0): WallClock => ({
  ...w,
  day: w.day + dayShift,
  hour: 0,
  minute: 0,
  second: 0,
});
const endOfDay = (w: WallClock): WallClock => ({ ...w, hour: 23, minute: 59, second: 59 });

/** Today, 00:00:00 to 23:59:59 in the business time zone. */
export function todayRange(now: number = Date.now(), timeZone: string = businessTimeZone()): InstantRange {
  return lastDaysRange(1, now, timeZone);
}

/**
 * The last `days` days including today: 00:00:00 of the first to 23:59:59 of today, days of the
 * business time zone (2: yesterday and today).
 */
export function lastDaysRange(
  days: number,
  now: number = Date.now(),
  timeZone: string = businessTimeZone(),
): InstantRange {
  const today = wallClockOf(now, timeZone);
  return [
    instantOfWallClock(startOfDay(today, 1 - Math.max(1, Math.floor(days))), timeZone),
    instantOfWallClock(endOfDay(today), timeZone),
  ];
}

/** This month: the 1st 00:00:00 to the last day's 23:59:59 in the business time zone. */
export function thisMonthRange(
  now: number = Date.now(),
  timeZone: string = businessTimeZone(),
): InstantRange {
  const today = wallClockOf(now, timeZone);
  return [
    instantOfWallClock({ ...startOfDay(today), day: 1 }, timeZone),
    // Day 0 of next month is the last day of this one.
    instantOfWallClock({ ...endOfDay(today), month: today.month + 1, day: 0 }, timeZone),
  ];
}
