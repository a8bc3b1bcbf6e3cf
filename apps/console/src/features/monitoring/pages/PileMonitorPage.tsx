import type { ProColumns } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  GUN_STATUSES,
  type GunStatus,
  type MonitorPilePage,
  type MonitorPileView,
  type MonitorPush,
} from '@voltdepot/shared-contracts';
import { Badge, Space, Typography } from 'antd';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { dateTimeColumn, gridDateTime } from '../../../app/grid/columns';
import { GridPage } from '../../../app/grid/GridPage';
import { usePagedGrid } from '../../../app/grid/useGrid';
import { MONITOR_PAGE_SIZE, monitorApi } from '../api/monitorApi';
import { GunStatusTag } from '../components/GunStatusTag';
import { LiveIndicator } from '../components/LiveIndicator';
import { PileCommands } from '../components/PileCommands';
import { PileGunCards } from '../components/PileGunCards';
import { useMonitorPush } from '../hooks/useMonitorPush';
import { useNow } from '../hooks/useNow';
import { useStatusOptions } from '../hooks/useStatusOptions';
import { applyToPilePage } from '../liveState';
import { monitorQueryKeys } from '../queryKeys';

/** The gun status a link opened the page with (`?gunStatus=fault` from the home page), when it is one. */
export function linkedGunStatus(search: URLSearchParams): GunStatus | undefined {
  const value = search.get('gunStatus');
  return (GUN_STATUSES as readonly string[]).includes(value ?? '') ? (value as GunStatus) : undefined;
}

/** Pile monitoring: every pile of the data scope with its connection, its guns' states and commands, live. */
export function PileMonitorPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const linkedStatus = linkedGunStatus(search);
  const queryClient = useQueryClient();
  const now = useNow();
  const gunStatusOptions = useStatusOptions('gun_status');
  const stations = useQuery({
    queryKey: monitorQueryKeys.pileStations(),
    queryFn: ({ signal }) => monitorApi.pileStations(signal),
    staleTime: 60_000,
  });
  const grid = usePagedGrid<MonitorPileView, MonitorPilePage>({
    listKey: monitorQueryKeys.piles(),
    fetch: (page, size, filters, signal) => monitorApi.piles(page, size, filters, signal),
    filters: ['stationId', 'keyword', 'online', 'gunStatus'],
    pageSize: MONITOR_PAGE_SIZE,
  });

  // A pushed change applies to the cached pages as they are: nothing is read again.
  const onPush = useCallback(
    (push: MonitorPush) =>
      queryClient.setQueriesData<MonitorPilePage | null>({ queryKey: monitorQueryKeys.piles() }, (current) =>
        current ? applyToPilePage(current, push) : current,
      ),
    [queryClient],
  );
  const stationIds = useMemo(
    () => grid.rows.flatMap((p) => (p.stationId === null ? [] : [p.stationId])),
    [grid.rows],
  );
  const connected = useMonitorPush(stationIds, {
    onPush,
    onResync: () => void queryClient.invalidateQueries({ queryKey: monitorQueryKeys.all }),
  });

  const columns = useMemo<ProColumns<MonitorPileView>[]>(
    () => [
      {
        title: t('monitoring.common.station'),
        dataIndex: 'stationId',
        valueType: 'select',
        fieldProps: {
          options: (stations.data ?? []).map((s) => ({ value: s.id, label: s.name })),
          showSearch: true,
        },
        render: (_dom, pile) => pile.stationName ?? '-',
        width: 160,
      },
      {
        title: t('monitoring.common.keyword'),
        dataIndex: 'keyword',
        hideInTable: true,
        fieldProps: {
          placeholder: `${t('monitoring.pile.name')} / ${t('monitoring.pile.number')} / ${t('monitoring.pile.chargePointId')}`,
        },
      },
      {
        title: t('monitoring.pile.name'),
        dataIndex: 'name',
        search: false,
        width: 180,
        render: (_dom, pile) => (
          <Space direction="vertical" size={0}>
            <span>{pile.name ?? '-'}</span>
            <Typography.Text type="secondary">{pile.chargePointId}</Typography.Text>
          </Space>
        ),
      },
      {
        title: t('monitoring.pile.state'),
        dataIndex: 'online',
        valueType: 'select',
        fieldProps: {
          options: [
            { value: 'true', label: t('monitoring.common.online') },
            { value: 'false', label: t('monitoring.common.offline') },
          ],
        },
        render: (_dom, pile) => (
          <Space direction="vertical" size={0} data-testid={`pile-online-${pile.chargePointId}`}>
            <Badge
              status={pile.online ? 'success' : 'default'}
              text={pile.online ? t('monitoring.common.online') : t('monitoring.common.offline')}
            />
            <Typography.Text type="secondary">{gridDateTime(pile.onlineSince)}</Typography.Text>
          </Space>
        ),
        width: 170,
      },
      {
        title: t('monitoring.pile.gunStatus'),
        dataIndex: 'gunStatus',
        valueType: 'select',
        fieldProps: { options: gunStatusOptions },
        ...(linkedStatus ? { initialValue: linkedStatus } : {}),
        render: (_dom, pile) => (
          <Space size={4} wrap>
            {pile.guns.map((g) => (
              <span key={g.connectorId}>
                {g.name ?? `#${g.connectorId}`} <GunStatusTag status={g.status} />
              </span>
            ))}
          </Space>
        ),
      },
      dateTimeColumn<MonitorPileView>(t('monitoring.common.lastSeen'), 'lastSeenAt'),
      {
        title: t('monitoring.pile.vendor'),
        dataIndex: 'vendor',
        search: false,
        width: 150,
        render: (_dom, pile) => [pile.vendor, pile.model].filter(Boolean).join(' / ') || '-',
      },
      {
        title: t('monitoring.command.title'),
        dataIndex: 'commands',
        search: false,
        width: 340,
        fixed: 'right',
        render: (_dom, pile) => <PileCommands pile={pile} />,
      },
    ],
    [t, stations.data, gunStatusOptions, linkedStatus],
  );

  return (
    <GridPage<MonitorPileView>
      grid={grid}
      title={t('monitoring.pile.title')}
      rowKey="chargePointId"
      columns={columns}
      scrollX={1400}
      toolbarExtra={[<LiveIndicator key="live" connected={connected} />]}
      table={{
        expandable: {
          expandedRowRender: (pile) => <PileGunCards pile={pile} now={now} col={{ xs: 24, md: 12, xl: 6 }} />,
        },
      }}
    />
  );
}
