import { ProTable, type ProColumns } from '@ant-design/pro-components';
import type { ReservationRow } from '@voltdepot/console-api-client';
import { Tag } from 'antd';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { filtersOf, useGridRequest } from '../../../app/grid/useGridRequest';
import type { QueryParams } from '../../../request';
import { billingApi } from '../api/billingApi';
import { ExportButton } from '../components/ExportButton';
import { useDictionary } from '../hooks/useDictionary';
import { locationColumns, useLocationOptions } from '../hooks/useOrderOptions';
import { BILLING_PERMISSIONS } from '../permissions';
import { billingQueryKeys } from '../queryKeys';
import { INSTANT_FORMAT, rangeSearchColumn } from '../utils/orderRange';

const FILTER_KEYS = ['start', 'end', 'stationId', 'pileId', 'gunId', 'idTag', 'status'];
const STATUS_COLORS: Record<string, string> = {
  successful: 'processing',
  completed: 'success',
  timedOut: 'warning',
  cancelled: 'default',
};

/** Reservations (/operation/reservation): what the piles accepted and what became of each. */
export function ReservationsPage() {
  const { t } = useTranslation();
  const statuses = useDictionary('reservation_status');
  const locations = useLocationOptions();
  const lastFilters = useRef<QueryParams>({});
  const request = useGridRequest<ReservationRow>({
    filters: (params) => filtersOf(params, FILTER_KEYS),
    queryKey: billingQueryKeys.reservations,
    fetch: billingApi.reservations,
    onFilters: (filters) => (lastFilters.current = filters),
  });

  const columns = useMemo<ProColumns<ReservationRow>[]>(
    () => [
      rangeSearchColumn<ReservationRow>(t('billing.reservation.reservedRange')),
      {
        title: t('billing.reservation.reservationId'),
        dataIndex: 'reservationId',
        width: 110,
        search: false,
      },
      ...locationColumns<ReservationRow>(t, locations),
      { title: t('billing.order.card'), dataIndex: 'idTag', width: 130 },
      {
        title: t('billing.reservation.cardholder'),
        dataIndex: 'cardholder',
        width: 140,
        search: false,
        render: (_, row) => row.cardholder ?? '-',
      },
      {
        title: t('billing.reservation.reservedAt'),
        dataIndex: 'reservedAt',
        width: 170,
        search: false,
        render: (_, row) => formatDateTime(row.reservedAt),
      },
      {
        title: t('billing.reservation.expiryDate'),
        dataIndex: 'expiryDate',
        width: 170,
        search: false,
        render: (_, row) => formatDateTime(row.expiryDate),
      },
      {
        title: t('billing.reservation.status'),
        dataIndex: 'status',
        width: 110,
        valueType: 'select',
        fieldProps: { options: statuses.options },
        render: (_, row) => <Tag color={STATUS_COLORS[row.status]}>{statuses.label(row.status)}</Tag>,
      },
      {
        title: t('billing.reservation.endedAt'),
        dataIndex: 'endedAt',
        width: 170,
        search: false,
        render: (_, row) => formatDateTime(row.endedAt) || '-',
      },
      {
        title: t('billing.occupation.chargingOrderNo'),
        dataIndex: 'chargingOrderNo',
        width: 230,
        search: false,
        render: (_, row) => row.chargingOrderNo ?? '-',
      },
    ],
    [t, locations, statuses],
  );

  return (
    <ProTable<ReservationRow>
      headerTitle={t('billing.reservation.title')}
      rowKey="id"
      columns={columns}
      request={request}
      dateFormatter={(value) => value.format(INSTANT_FORMAT)}
      scroll={{ x: 1700 }}
      search={{ labelWidth: 'auto', defaultCollapsed: false }}
      pagination={{ defaultPageSize: 20, showSizeChanger: true }}
      toolBarRender={() => [
        <ExportButton
          key="export"
          permission={BILLING_PERMISSIONS.reservationExport}
          testId="reservation-export"
          run={(lang) => billingApi.exportReservations(lastFilters.current, lang)}
        />,
      ]}
    />
  );
}
