import type { ProColumns } from '@ant-design/pro-components';
import type { Dayjs } from 'dayjs';
import { businessTimeZone, lastDaysRange, type InstantRange } from '../../../app/format/businessTime';
import { pickedRangeParams, pickerRangeOf } from '../../../app/format/businessPicker';
import { WithTimeZoneHint } from '../../../app/format/TimeZoneHint';

/**
 * Spec §9: the default query range is yesterday 00:00:00 to today 23:59:59, days of the business time
 * zone (not the browser's): the same orders whichever zone the browser is in.
 */
export function defaultOrderRange(
  now: number = Date.now(),
  timeZone: string = businessTimeZone(),
): InstantRange {
  return lastDaysRange(2, now, timeZone);
}

/**
 * The query parameters of a range picked in the search form (still dayjs, or the text the form made of
 * it): business wall-clock time, sent as instants with the business offset.
 */
export function rangeParams(range: readonly [Dayjs | string, Dayjs | string] | undefined | null): {
  start?: string;
  end?: string;
} {
  return pickedRangeParams(range);
}

/**
 * The search form's period of a billing list (not a table column): default range per spec §9, picked
 * to the second in business time (labelled with its offset), sent as `start`/`end` instants.
 */
export function rangeSearchColumn<T>(title: string): ProColumns<T> {
  return {
    title: <WithTimeZoneHint title={title} wording />,
    key: 'range',
    dataIndex: 'range',
    valueType: 'dateTimeRange',
    hideInTable: true,
    colSize: 2,
    initialValue: pickerRangeOf(defaultOrderRange()),
    fieldProps: { format: 'YYYY-MM-DD HH:mm:ss' },
    search: { transform: (value: [string | Dayjs, string | Dayjs] | undefined) => rangeParams(value) },
  };
}

/**
 * A period given in the address (`?start=...&end=...`, instants: the home page's link to today's
 * orders), as the picker holds it (business wall-clock time), or undefined when either is missing or
 * not a date.
 */
export function linkedRange(search: URLSearchParams): [Dayjs, Dayjs] | undefined {
  const start = Date.parse(search.get('start') ?? '');
  const end = Date.parse(search.get('end') ?? '');
  return Number.isNaN(start) || Number.isNaN(end) ? undefined : pickerRangeOf([start, end]);
}
