import type { ProColumns } from '@ant-design/pro-components';
import { BUSINESS_TIME_ZONE } from '../format/businessTime';
import { formatDateTime, type DateTimeInput } from '../format/formatDateTime';

/** An instant as the grids show it: YYYY-MM-DD HH:mm:ss in the business time zone, '-' when there is none. */
export const gridDateTime = (value: DateTimeInput | null | undefined): string =>
  formatDateTime(value, BUSINESS_TIME_ZONE) || '-';

/** A column of instants (not a search field), shown in the business time zone. */
export function dateTimeColumn<T>(title: string, dataIndex: keyof T & string, width = 170): ProColumns<T> {
  return {
    title,
    dataIndex,
    width,
    search: false,
    render: (_dom, row) => gridDateTime(row[dataIndex] as DateTimeInput | null | undefined),
  };
}
