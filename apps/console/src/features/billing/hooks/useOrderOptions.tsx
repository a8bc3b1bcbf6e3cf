import type { ProColumns } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { usePermission } from '@voltdepot/console-ui';
import { Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { billingApi } from '../api/billingApi';
import { BILLING_PERMISSIONS } from '../permissions';
import { billingQueryKeys } from '../queryKeys';
import { formatYuan } from '../../../app/format/money';
import type { useDictionary } from './useDictionary';

type Option = { value: number; label: string };

/**
 * Stations, piles ("station / pile") and guns ("pile / gun") of the caller's organisations as select
 * options for the list filters. Read with the order permission; without it the lists stay empty.
 */
export type LocationOptions = { stations: Option[]; piles: Option[]; guns: Option[] };

export function useLocationOptions(): LocationOptions {
  const allowed = usePermission(BILLING_PERMISSIONS.orderView);
  const query = useQuery({
    queryKey: billingQueryKeys.orderOptions(),
    queryFn: async ({ signal }) =>
      (await billingApi.orderOptions(signal)) ?? { stations: [], piles: [], guns: [] },
    staleTime: 5 * 60_000,
    enabled: allowed,
  });
  return useMemo(() => {
    const data = query.data ?? { stations: [], piles: [], guns: [] };
    const stationName = new Map(data.stations.map((s) => [s.id, s.name]));
    const pileName = new Map(data.piles.map((p) => [p.id, p.name]));
    return {
      stations: data.stations.map((s) => ({ value: s.id, label: s.name })),
      piles: data.piles.map((p) => ({
        value: p.id,
        label: p.stationId !== null ? `${stationName.get(p.stationId) ?? ''} / ${p.name}` : p.name,
      })),
      guns: data.guns.map((g) => ({ value: g.id, label: `${pileName.get(g.pileId) ?? ''} / ${g.name}` })),
    };
  }, [query.data]);
}

/** Select props for a searchable option list in a ProTable search form. */
export const searchableSelect = (options: Option[] | { value: string; label: string }[]) => ({
  showSearch: true,
  optionFilterProp: 'label',
  options,
});

/** What a row of a session list says about where it took place. */
type LocatedRow = {
  stationName: string | null;
  pileName: string | null;
  chargePointId: string;
  gunName: string | null;
  connectorId: number;
};

/**
 * The station, pile and gun columns of the session lists (orders, occupation fees, reservations): each a
 * searchable filter of the caller's locations, showing the name (else the OCPP identity or connector).
 */
export function locationColumns<T extends LocatedRow>(
  t: TFunction,
  locations: LocationOptions,
): ProColumns<T>[] {
  return [
    {
      title: t('billing.order.station'),
      dataIndex: 'stationId',
      width: 150,
      valueType: 'select',
      fieldProps: searchableSelect(locations.stations),
      render: (_, row) => row.stationName ?? '-',
    },
    {
      title: t('billing.order.pile'),
      dataIndex: 'pileId',
      width: 140,
      valueType: 'select',
      fieldProps: searchableSelect(locations.piles),
      render: (_, row) => row.pileName ?? row.chargePointId,
    },
    {
      title: t('billing.order.gun'),
      dataIndex: 'gunId',
      width: 110,
      valueType: 'select',
      fieldProps: searchableSelect(locations.guns),
      render: (_, row) => row.gunName ?? String(row.connectorId),
    },
  ];
}

/** A session's payment: a filter of the pay_status dictionary, shown as a tag (paid green, abnormal red). */
export function payStatusColumn<T extends { payStatus: number }>(
  t: TFunction,
  payStatus: ReturnType<typeof useDictionary>,
): ProColumns<T> {
  return {
    title: t('billing.order.payStatus'),
    dataIndex: 'payStatus',
    width: 100,
    valueType: 'select',
    fieldProps: { options: payStatus.options },
    render: (_, row) => (
      <Tag color={row.payStatus === 3 ? 'error' : row.payStatus === 1 ? 'success' : 'default'}>
        {payStatus.label(row.payStatus)}
      </Tag>
    ),
  };
}

/** An amount in fen shown in yuan, right-aligned (bold for a total); not a filter. */
export function yuanColumn<T>(
  title: string,
  dataIndex: keyof T & string,
  options: { width?: number; strong?: boolean } = {},
): ProColumns<T> {
  return {
    title,
    dataIndex,
    width: options.width ?? 110,
    align: 'right',
    search: false,
    render: (_, row) => {
      const text = formatYuan(row[dataIndex] as number);
      return options.strong ? <Typography.Text strong>{text}</Typography.Text> : text;
    },
  };
}
