/** The zone sheets write date-times in unless told otherwise (the business time zone). */
export const SHEET_TIME_ZONE = 'Asia/Shanghai';

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone: building an Intl.DateTimeFormat costs far more than using one. */
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (f === undefined) {
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

/**
 * An instant as `YYYY-MM-DD HH:mm:ss` wall-clock time in `timeZone` (the console's one date-time
 * format), as exports write it; null for no value.
 */
export function sheetDateTime(
  value: string | Date | null | undefined,
  timeZone: string = SHEET_TIME_ZONE,
): string | null {
  if (value === null || value === undefined || value === '') return null;
  const p = Object.fromEntries(
    formatterOf(timeZone)
      .formatToParts(new Date(value))
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}
