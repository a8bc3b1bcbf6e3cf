/** The one date-time format of the console (spec §9). */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

export type DateTimeInput = Date | number | string;

/**
 * Formats as YYYY-MM-DD HH:mm:ss. Uses the browser's time zone unless one is given
 * (e.g. the business time zone, Asia/Shanghai). Empty or invalid input gives ''.
 */
export function formatDateTime(value: DateTimeInput | null | undefined, timeZone?: string): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${String(parts.year).padStart(4, '0')}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}
