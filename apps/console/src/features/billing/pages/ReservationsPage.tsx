import type { ProColumns } from '@ant-design/pro-components';
import type { ReservationRow } from '@voltdepot/console-api-client';
import { Tag } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { dateTimeColumn } from '../../../app/grid/columns';
import { GridPage } from '../../../app/grid/GridPage';
import { billingApi } from '../api/billingApi';
import { exportButton, useBillingGrid } from '../components/billingGrid';
import { useDictionary } from '../hooks/useDictionary';
import { locationColumns, useLocationOptions } from '../hooks/useOrderOptions';
import { BILLING_PERMISSIONS } from '../permissions';
import { rangeSearchColumn } from '../utils/orderRange';

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
  const grid = useBillingGrid<ReservationRow>('reservations', billingApi.reservations, {
    filters: FILTER_KEYS,
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
      dateTimeColumn<ReservationRow>(t('billing.reservation.reservedAt'), 'reservedAt'),
      dateTimeColumn<ReservationRow>(t('billing.reservation.expiryDate'), 'expiryDate'),
      {
        title: t('billing.reservation.status'),
        dataIndex: 'status',
        width: 110,
        valueType: 'select',
        fieldProps: { options: statuses.options },
        render: (_, row) => <Tag color={STATUS_COLORS[row.status]}>{statuses.label(row.status)}</Tag>,
      },
      dateTimeColumn<ReservationRow>(t('billing.reservation.endedAt'), 'endedAt'),
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
    <GridPage<ReservationRow>
      grid={grid}
      title={t('billing.reservation.title')}
      texts="billing"
      pageSizeChanger
      columns={columns}
      scrollX={1700}
      toolbar={[
        exportButton(
          BILLING_PERMISSIONS.reservationExport,
          'reservation-export',
          billingApi.exportReservations,
        ),
      ]}
    />
  );
}
