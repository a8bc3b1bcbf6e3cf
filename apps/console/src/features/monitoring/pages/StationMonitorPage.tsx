import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { MonitorPush, MonitorStationSummary, MonitorStationView } from '@voltdepot/shared-contracts';
import { Card, Col, Descriptions, Empty, Image, Row, Select, Space, Spin } from 'antd';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { monitorApi } from '../api/monitorApi';
import { LiveIndicator } from '../components/LiveIndicator';
import { PileCard } from '../components/PileCard';
import { StationMap } from '../components/StationMap';
import { StatusLegend } from '../components/StatusLegend';
import { sitePlanBounds } from '../../../app/map/sitePlan';
import { useMonitorPush } from '../hooks/useMonitorPush';
import { useSitePlan } from '../hooks/useSitePlan';
import { useNow } from '../hooks/useNow';
import { applyToStation } from '../liveState';
import { monitorQueryKeys } from '../queryKeys';

/** Station monitoring (business-areas §2): the stations on a map, the chosen one's piles and gun cards, live. */
export function StationMonitorPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const now = useNow();
  const [params, setParams] = useSearchParams();
  const stations = useQuery({
    queryKey: monitorQueryKeys.stations(),
    queryFn: ({ signal }) => monitorApi.stations(signal),
    refetchInterval: 60_000,
  });
  const list = useMemo(() => stations.data ?? [], [stations.data]);
  const requested = Number(params.get('station'));
  const selectedId = list.some((s) => s.id === requested) ? requested : list[0]?.id;
  const station = useQuery({
    queryKey: monitorQueryKeys.station(selectedId ?? 0),
    queryFn: ({ signal }) => monitorApi.station(selectedId!, signal),
    enabled: selectedId !== undefined,
  });

  // Counts of other stations' markers are read again shortly after their changes.
  const summariesTimer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(summariesTimer.current), []);
  const onPush = useCallback(
    (push: MonitorPush) => {
      const key = monitorQueryKeys.station(push.stationId);
      const view = queryClient.setQueryData<MonitorStationView>(key, (current) =>
        current ? applyToStation(current, push) : current,
      );
      if (view) {
        queryClient.setQueryData<MonitorStationSummary[]>(monitorQueryKeys.stations(), (current) =>
          current?.map((s) =>
            s.id === view.id ? { ...s, guns: view.guns, pilesOnline: view.pilesOnline } : s,
          ),
        );
      } else if (!summariesTimer.current) {
        summariesTimer.current = setTimeout(() => {
          summariesTimer.current = undefined;
          void queryClient.invalidateQueries({ queryKey: monitorQueryKeys.stations() });
        }, 2_000);
      }
    },
    [queryClient],
  );
  const connected = useMonitorPush(
    list.map((s) => s.id),
    {
      onPush,
      onResync: () => void queryClient.invalidateQueries({ queryKey: monitorQueryKeys.all }),
    },
  );

  const select = (id: number) => setParams({ station: String(id) }, { replace: true });
  const view = station.data;
  const sitePlan = useSitePlan(selectedId);
  const selectedSummary = list.find((s) => s.id === selectedId);
  const sitePlanOnMap =
    sitePlan && selectedSummary
      ? sitePlanBounds([selectedSummary.latitude, selectedSummary.longitude], sitePlan.areaSqm, sitePlan)
      : undefined;
  return (
    <Card
      title={t('monitoring.station.title')}
      extra={
        <Space>
          <Select
            style={{ minWidth: 220 }}
            placeholder={t('monitoring.station.choose')}
            value={selectedId}
            onChange={select}
            options={list.map((s) => ({ value: s.id, label: s.name }))}
            data-testid="station-select"
          />
          <LiveIndicator connected={connected} />
        </Space>
      }
    >
      {stations.isLoading ? (
        <Spin />
      ) : list.length === 0 ? (
        <Empty description={t('monitoring.station.noStations')} />
      ) : (
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={8}>
            <StationMap
              stations={list}
              selectedId={selectedId}
              onSelect={select}
              sitePlan={sitePlan && sitePlanOnMap ? { url: sitePlan.url, bounds: sitePlanOnMap } : undefined}
            />
            {view && (
              <Descriptions size="small" column={1} style={{ marginTop: 12 }}>
                <Descriptions.Item label={t('monitoring.common.station')}>{view.name}</Descriptions.Item>
                <Descriptions.Item label={t('monitoring.station.address')}>{view.address}</Descriptions.Item>
                <Descriptions.Item label={t('monitoring.common.pile')}>
                  {t('monitoring.station.piles', { online: view.pilesOnline, total: view.pilesTotal })}
                </Descriptions.Item>
              </Descriptions>
            )}
            {sitePlan && (
              <div data-testid="station-site-plan">
                <Descriptions size="small" column={1}>
                  <Descriptions.Item label={t('monitoring.station.sitePlan')}>
                    <Image src={sitePlan.url} width="100%" alt={t('monitoring.station.sitePlan')} />
                  </Descriptions.Item>
                </Descriptions>
              </div>
            )}
          </Col>
          <Col xs={24} xl={16}>
            <Space direction="vertical" style={{ width: '100%' }} size={12}>
              <StatusLegend counts={view?.guns} />
              {station.isLoading ? (
                <Spin />
              ) : view && view.piles.length > 0 ? (
                view.piles.map((pile) => <PileCard key={pile.chargePointId} pile={pile} now={now} />)
              ) : (
                <Empty description={t('monitoring.station.noPiles')} />
              )}
            </Space>
          </Col>
        </Row>
      )}
    </Card>
  );
}
