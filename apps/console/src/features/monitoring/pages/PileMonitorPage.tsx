import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MonitorPilePage, MonitorPileView, MonitorPush } from '@voltdepot/shared-contracts';
import { Badge, Col, Row, Space, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/format/formatDateTime';
import type { QueryParams } from '../../../request';
import { MONITOR_PAGE_SIZE, monitorApi } from '../api/monitorApi';
import { GunCard } from '../components/GunCard';
import { GunStatusTag } from '../components/GunStatusTag';
import { LiveIndicator } from '../components/LiveIndicator';
import { GunCommands, PileCommands } from '../components/PileCommands';
import { useMonitorPush } from '../hooks/useMonitorPush';
import { useNow } from '../hooks/useNow';
import { useStatusOptions } from '../hooks/useStatusOptions';
import { applyToPilePage } from '../liveState';
import { monitorQueryKeys } from '../queryKeys';

type PileFilters = { stationId?: number; keyword?: string; online?: 'true' | 'false'; gunStatus?: string };

function toParams(values: Record<string, unknown>): QueryParams {
  const params: QueryParams = {};
  for (const key of ['stationId', 'keyword', 'online', 'gunStatus'] as const) {
    const value = values[key];
    if (value === undefined || value === null) continue;
    const text = typeof value === 'string' ? value.trim() : value;
    if (text !== '' && (typeof text === 'string' || typeof text === 'number')) params[key] = text;
  }
  return params;
}

/** Pile monitoring: every pile of the data scope with its connection, its guns' states and commands, live. */
export function PileMonitorPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const now = useNow();
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState<QueryParams>({});
  const gunStatusOptions = useStatusOptions('gun_status');
  const stations = useQuery({
    queryKey: monitorQueryKeys.pileStations(),
    queryFn: ({ signal }) => monitorApi.pileStations(signal),
    staleTime: 60_000,
  });
  const key = monitorQueryKeys.piles(page, filters);
  const piles = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => monitorApi.piles(page, MONITOR_PAGE_SIZE, filters, signal),
    placeholderData: keepPreviousData,
  });

  const onPush = useCallback(
    (push: MonitorPush) =>
      queryClient.setQueryData<MonitorPilePage>(key, (current) =>
        current ? applyToPilePage(current, push) : current,
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryClient, JSON.stringify(key)],
  );
  const stationIds = useMemo(
    () => (piles.data?.list ?? []).flatMap((p) => (p.stationId === null ? [] : [p.stationId])),
    [piles.data],
  );
  const connected = useMonitorPush(stationIds, {
    onPush,
    onReconnect: () => void queryClient.invalidateQueries({ queryKey: monitorQueryKeys.all }),
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
            <Typography.Text type="secondary">{formatDateTime(pile.onlineSince)}</Typography.Text>
          </Space>
        ),
        width: 170,
      },
      {
        title: t('monitoring.pile.gunStatus'),
        dataIndex: 'gunStatus',
        valueType: 'select',
        fieldProps: { options: gunStatusOptions },
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
      {
        title: t('monitoring.common.lastSeen'),
        dataIndex: 'lastSeenAt',
        search: false,
        width: 170,
        render: (_dom, pile) => formatDateTime(pile.lastSeenAt) || '-',
      },
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
    [t, stations.data, gunStatusOptions],
  );

  return (
    <ProTable<MonitorPileView, PileFilters>
      headerTitle={t('monitoring.pile.title')}
      rowKey="chargePointId"
      columns={columns}
      dataSource={piles.data?.list}
      loading={piles.isFetching}
      options={false}
      cardBordered
      toolBarRender={() => [<LiveIndicator key="live" connected={connected} />]}
      search={{ labelWidth: 'auto' }}
      onSubmit={(values) => {
        setFilters(toParams(values as Record<string, unknown>));
        setPage(1);
      }}
      onReset={() => {
        setFilters({});
        setPage(1);
      }}
      expandable={{
        expandedRowRender: (pile) => (
          <Row gutter={[12, 12]}>
            {pile.guns.map((gun) => (
              <Col key={gun.connectorId} xs={24} md={12} xl={6}>
                <GunCard
                  chargePointId={pile.chargePointId}
                  gun={gun}
                  now={now}
                  actions={<GunCommands pile={pile} gun={gun} />}
                />
              </Col>
            ))}
          </Row>
        ),
      }}
      pagination={{
        current: page,
        pageSize: MONITOR_PAGE_SIZE,
        total: piles.data?.total ?? 0,
        showSizeChanger: false,
        showTotal: (total) => t('common.total', { total }),
        onChange: setPage,
      }}
      scroll={{ x: 1400 }}
    />
  );
}
