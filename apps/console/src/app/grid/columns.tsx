import type { ProColumns } from '@ant-design/pro-components';
import type { ReactNode } from 'react';
import { formatDateTime, type DateTimeInput } from '../format/formatDateTime';
import { WithTimeZoneHint } from '../format/TimeZoneHint';

/** An instant as the grids show it: YYYY-MM-DD HH:mm:ss in the business time zone, '-' when there is none. */
export const gridDateTime = (value: DateTimeInput | null | undefined): string => formatDateTime(value) || '-';

/** The title of a column of instants: its name and the business zone's offset (`UTC+8`). */
export const timeColumnTitle = (title: ReactNode): ReactNode => <WithTimeZoneHint title={title} />;

/** A column of instants (not a search field), shown in the business time zone. */
export function dateTimeColumn<T>(title: string, dataIndex: keyof T & string, width = 170): ProColumns<T> {
  return {
    title: timeColumnTitle(title),
    dataIndex,
    width,
    search: false,
    render: (_dom, row) => gridDateTime(row[dataIndex] as DateTimeInput | null | undefined),
  };
}
