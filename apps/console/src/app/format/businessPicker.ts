import dayjs, { type Dayjs } from 'dayjs';
import { businessTimeZone, instantOfWallClock, wallClockOf, type InstantRange } from './businessTime';
import { formatInstant, type DateTimeInput } from './formatDateTime';

/**
 * antd's pickers work in the browser's zone. To show and pick business time whatever that zone, a
 * picker holds the business wall clock as if it were the browser's (`pickerValueOf`), and what was
 * picked is read back as business wall-clock time (`instantOfPicked`). In a browser whose zone skips an
 * hour (daylight saving) a business time in that hour cannot be picked; Asia/Shanghai has no such hour.
 */

/** What a picker shows for an instant: its business wall clock. */
export function pickerValueOf(value: DateTimeInput, timeZone: string = businessTimeZone()): Dayjs {
  const ms = value instanceof Date ? value.getTime() : new Date(value).getTime();
  if (Number.isNaN(ms)) return dayjs(NaN);
  const w = wallClockOf(ms, timeZone);
  return dayjs(new Date(w.year, w.month - 1, w.day, w.hour, w.minute, w.second));
}

/** A range of instants as a range picker's value. */
export function pickerRangeOf(range: InstantRange, timeZone: string = businessTimeZone()): [Dayjs, Dayjs] {
  return [pickerValueOf(range[0], timeZone), pickerValueOf(range[1], timeZone)];
}

/** Now, as a picker holds it (for `disabledDate` and the like: "before today" is the business today). */
export function pickerNow(timeZone: string = businessTimeZone()): Dayjs {
  return pickerValueOf(Date.now(), timeZone);
}

/**
 * The instant a picked value means: its wall clock read in the business time zone. Takes a picker's
 * dayjs or the text a form made of it (`YYYY-MM-DD HH:mm:ss`); undefined when empty or invalid.
 */
export function instantOfPicked(
  value: Dayjs | string | null | undefined,
  timeZone: string = businessTimeZone(),
): number | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const d = dayjs.isDayjs(value) ? value : dayjs(value);
  if (!d.isValid()) return undefined;
  return instantOfWallClock(
    {
      year: d.year(),
      month: d.month() + 1,
      day: d.date(),
      hour: d.hour(),
      minute: d.minute(),
      second: d.second(),
    },
    timeZone,
  );
}

/** A picked value as the api takes an instant (`2025-03-02T00:00:00+08:00`); undefined when empty. */
export function pickedInstantParam(
  value: Dayjs | string | null | undefined,
  timeZone: string = businessTimeZone(),
): string | undefined {
  const ms = instantOfPicked(value, timeZone);
  return ms === undefined ? undefined : formatInstant(ms, timeZone);
}

/** A picked range as the `start`/`end` filters of a list (instants with the business offset). */
export function pickedRangeParams(
  range: readonly [Dayjs | string | null | undefined, Dayjs | string | null | undefined] | undefined | null,
  timeZone: string = businessTimeZone(),
): { start?: string; end?: string } {
  const start = pickedInstantParam(range?.[0], timeZone);
  const end = pickedInstantParam(range?.[1], timeZone);
  return start && end ? { start, end } : {};
}
