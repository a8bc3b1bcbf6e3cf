import type { ProColumns } from '@ant-design/pro-components';
import dayjs, { type Dayjs } from 'dayjs';
import { BUSINESS_TIME_ZONE, instantOfWallClock, wallClockOf } from '../../../app/format/businessTime';

/**
 * Spec §9: the default query range is yesterday 00:00:00 to today 23:59:59, days of the business time
 * zone (not the browser's): the same orders whichever zone the browser is in.
 */
export function defaultOrderRange(now: Dayjs = dayjs(), timeZone = BUSINESS_TIME_ZONE): [Dayjs, Dayjs] {
  const today = wallClockOf(now.valueOf(), timeZone);
  const start = instantOfWallClock({ ...today, day: today.day - 1, hour: 0, minute: 0, second: 0 }, timeZone);
  const end = instantOfWallClock({ ...today, hour: 23, minute: 59, second: 59 }, timeZone);
  return [dayjs(start), dayjs(end)];
}

/** An instant with the browser's offset, to the second (what the api's filters take). */
export const INSTANT_FORMAT = 'YYYY-MM-DDTHH:mm:ssZ';

/** A picked date-time as an instant: dayjs, or text (a form's own format is the browser's wall clock). */
function instant(value: Dayjs | string): string {
  const parsed = dayjs.isDayjs(value) ? value : dayjs(value);
  return parsed.isValid() ? parsed.format(INSTANT_FORMAT) : String(value);
}

/** The query parameters of a range picked in the search form (already formatted or still dayjs). */
export function rangeParams(range: readonly [Dayjs | string, Dayjs | string] | undefined | null): {
  start?: string;
  end?: string;
} {
  if (!range || !range[0] || !range[1]) return {};
  return { start: instant(range[0]), end: instant(range[1]) };
}

/**
 * The search form's period of a billing list (not a table column): default range per spec §9, picked
 * to the second, sent as `start`/`end` instants.
 */
export function rangeSearchColumn<T>(title: string): ProColumns<T> {
  return {
    title,
    key: 'range',
    dataIndex: 'range',
    valueType: 'dateTimeRange',
    hideInTable: true,
    colSize: 2,
    initialValue: defaultOrderRange(),
    fieldProps: { format: 'YYYY-MM-DD HH:mm:ss' },
    search: { transform: (value: [string | Dayjs, string | Dayjs] | undefined) => rangeParams(value) },
  };
}

/**
 * A period given in the address (`?start=...&end=...`, instants: the home page's link to today's
 * orders), or undefined when either is missing or not a date.
 */
export function linkedRange(search: URLSearchParams): [Dayjs, Dayjs] | undefined {
  const start = dayjs(search.get('start') ?? '');
  const end = dayjs(search.get('end') ?? '');
  return search.get('start') && search.get('end') && start.isValid() && end.isValid()
    ? [start, end]
    : undefined;
}
