import { wallClockOf } from './businessTime';

/** The one date-time format of the console (spec §9). */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

export type DateTimeInput = Date | number | string;

const two = (n: number) => String(n).padStart(2, '0');

/**
 * Formats as YYYY-MM-DD HH:mm:ss. Uses the browser's time zone unless one is given
 * (e.g. the business time zone, Asia/Shanghai). Empty or invalid input gives ''.
 */
export function formatDateTime(value: DateTimeInput | null | undefined, timeZone?: string): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const w = wallClockOf(date.getTime(), timeZone);
  return `${String(w.year).padStart(4, '0')}-${two(w.month)}-${two(w.day)} ${two(w.hour)}:${two(w.minute)}:${two(w.second)}`;
}
