import { businessTimeZone, offsetMinutesOf, wallClockOf } from './businessTime';

/** The one date-time format of the console (spec §9). */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

export type DateTimeInput = Date | number | string;

const two = (n: number) => String(n).padStart(2, '0');

const toMs = (value: DateTimeInput | null | undefined): number | undefined => {
  if (value === null || value === undefined || value === '') return undefined;
  const ms = (value instanceof Date ? value : new Date(value)).getTime();
  return Number.isNaN(ms) ? undefined : ms;
};

/**
 * Formats as YYYY-MM-DD HH:mm:ss in the business time zone (never the browser's), or in `timeZone` when
 * one is given. Empty or invalid input gives ''.
 */
export function formatDateTime(value: DateTimeInput | null | undefined, timeZone?: string): string {
  const ms = toMs(value);
  if (ms === undefined) return '';
  const w = wallClockOf(ms, timeZone ?? businessTimeZone());
  return `${String(w.year).padStart(4, '0')}-${two(w.month)}-${two(w.day)} ${two(w.hour)}:${two(w.minute)}:${two(w.second)}`;
}

/** YYYY-MM-DD: the business day of an instant. */
export function formatDate(value: DateTimeInput | null | undefined, timeZone?: string): string {
  return formatDateTime(value, timeZone).slice(0, 10);
}

/**
 * An instant as the api's filters and bodies take it: ISO-8601 to the second with the business time
 * zone's offset (`2025-03-02T00:00:00+08:00`), so the server reads the same instant whatever its zone.
 */
export function formatInstant(value: DateTimeInput | null | undefined, timeZone?: string): string {
  const ms = toMs(value);
  if (ms === undefined) return '';
  const zone = timeZone ?? businessTimeZone();
  const offset = offsetMinutesOf(ms, zone);
  const abs = Math.abs(offset);
  return `${formatDateTime(ms, zone).replace(' ', 'T')}${offset < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}
