import { useQuery } from '@tanstack/react-query';
import type { StationPricePlanView } from '@voltdepot/console-api-client';
import { Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { assetApi } from '../api/assetApi';
import { assetsQueryKeys } from '../queryKeys';

/** Query key of a station's plan history (invalidated when a plan is assigned). */
export const stationPricePlansKey = (stationId: number) =>
  [...assetsQueryKeys.pricePlans(), 'station', stationId] as const;

/** The plans of a station, newest first: which plan priced sessions starting from when until when. */
export function StationPricePlanHistory({ stationId }: { stationId: number }) {
  const { t } = useTranslation();
  const history = useQuery({
    queryKey: stationPricePlansKey(stationId),
    queryFn: ({ signal }) => assetApi.stationPricePlans(stationId, signal),
  });
  const now = Date.now();
  return (
    <Table<StationPricePlanView>
      data-testid="station-price-plan-history"
      size="small"
      rowKey={(r) => r.from}
      loading={history.isLoading}
      dataSource={history.data ?? []}
      pagination={false}
      locale={{ emptyText: t('assets.station.pricePlanHistoryEmpty') }}
      columns={[
        {
          title: t('assets.field.pricePlan'),
          dataIndex: 'planName',
          render: (_, r) => {
            const current = Date.parse(r.from) <= now && (r.until === null || Date.parse(r.until) > now);
            return current ? <Tag color="processing">{r.planName}</Tag> : r.planName;
          },
        },
        {
          title: t('assets.station.pricePlanFrom'),
          dataIndex: 'from',
          render: (_, r) => formatDateTime(r.from),
        },
        {
          title: t('assets.station.pricePlanUntil'),
          dataIndex: 'until',
          render: (_, r) => (r.until ? formatDateTime(r.until) : t('assets.station.pricePlanCurrent')),
        },
        {
          title: t('assets.station.pricePlanAssignedBy'),
          dataIndex: 'assignedBy',
          render: (_, r) => r.assignedBy ?? '-',
        },
        {
          title: t('assets.station.pricePlanAssignedAt'),
          dataIndex: 'assignedAt',
          render: (_, r) => formatDateTime(r.assignedAt),
        },
      ]}
    />
  );
}
