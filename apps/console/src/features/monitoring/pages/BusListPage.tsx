import type { ProColumns } from '@ant-design/pro-components';
import {
  LOW_SOC_PERCENT,
  VEHICLE_CHARGE_STATUSES,
  type MonitorVehiclePage,
  type MonitorVehicleView,
  type VehicleChargeStatus,
} from '@voltdepot/shared-contracts';
import { Progress, Space, Tag, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { dateTimeColumn } from '../../../app/grid/columns';
import { GridPage } from '../../../app/grid/GridPage';
import { usePagedGrid } from '../../../app/grid/useGrid';
import { MONITOR_PAGE_SIZE, monitorApi } from '../api/monitorApi';
import { LiveIndicator } from '../components/LiveIndicator';
import { formatEnergy, formatPower, formatSoc } from '../format';
import { useMonitorPush } from '../hooks/useMonitorPush';
import { useStatusOptions } from '../hooks/useStatusOptions';
import { LOW_SOC_COLOR } from '../liveState';
import { monitorQueryKeys } from '../queryKeys';

export const VEHICLE_STATUS_COLORS: Record<VehicleChargeStatus, string> = {
  uncharged: 'default',
  parkingCharge: 'processing',
  drivingCharge: 'cyan',
  complete: 'success',
};

/** Row style of a low-SoC vehicle (business-areas §9: SoC below 30 %). */
export const LOW_SOC_ROW_STYLE = { background: '#fff1f0' };

/**
 * The bus list (vehicle monitoring): each bus's operational status, SoC and charging status (a bus in
 * service charging at a pile is a driving charge, one out of service a parking charge), low SoC
 * highlighted, live.
 */
export function BusListPage() {
  const { t } = useTranslation();
  const statusOptions = useStatusOptions('vehicle_charge_status');
  const grid = usePagedGrid<MonitorVehicleView, MonitorVehiclePage>({
    listKey: monitorQueryKeys.vehicles(),
    fetch: (page, size, filters, signal) => monitorApi.vehicles(page, size, filters, signal),
    filters: ['keyword', 'chargeStatus', 'lowSoc'],
    pageSize: MONITOR_PAGE_SIZE,
  });
  const { reload } = grid;

  // A vehicle's status is worked out by the server: any change at a station reads the page again (batched).
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const refresh = useCallback(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = undefined;
      void reload();
    }, 300);
  }, [reload]);
  const connected = useMonitorPush(grid.data?.stationIds ?? [], {
    onPush: refresh,
    onResync: refresh,
  });

  const columns = useMemo<ProColumns<MonitorVehicleView>[]>(
    () => [
      {
        title: t('monitoring.common.keyword'),
        dataIndex: 'keyword',
        hideInTable: true,
        fieldProps: { placeholder: t('monitoring.bus.keywordHint') },
      },
      { title: t('monitoring.bus.plate'), dataIndex: 'plate', search: false, width: 130 },
      { title: t('monitoring.bus.selfNumber'), dataIndex: 'selfNumber', search: false, width: 100 },
      {
        title: `${t('monitoring.bus.fleet')} / ${t('monitoring.bus.line')}`,
        dataIndex: 'fleetName',
        search: false,
        width: 160,
        render: (_dom, v) => [v.fleetName, v.lineName].filter(Boolean).join(' / ') || '-',
      },
      {
        title: t('monitoring.bus.operational'),
        dataIndex: 'operational',
        search: false,
        width: 120,
        render: (_dom, v) => (
          <Tag color={v.operational ? 'green' : 'default'} data-testid={`bus-operational-${v.id}`}>
            {t(v.operational ? 'monitoring.bus.inService' : 'monitoring.bus.notInService')}
          </Tag>
        ),
      },
      {
        title: t('monitoring.bus.chargeStatus'),
        dataIndex: 'chargeStatus',
        valueType: 'select',
        fieldProps: { options: statusOptions },
        width: 120,
        render: (_dom, v) => (
          <Tag color={VEHICLE_STATUS_COLORS[v.chargeStatus]} data-testid={`bus-status-${v.id}`}>
            {t(`monitoring.vehicleStatus.${v.chargeStatus}`)}
          </Tag>
        ),
      },
      {
        title: t('monitoring.bus.soc'),
        dataIndex: 'soc',
        search: false,
        width: 200,
        render: (_dom, v) =>
          v.soc === null ? (
            '-'
          ) : (
            <Space size={4} data-testid={`bus-soc-${v.id}`} data-low={v.lowSoc ? 'true' : 'false'}>
              <Progress
                percent={v.soc}
                size="small"
                strokeColor={v.lowSoc ? LOW_SOC_COLOR : undefined}
                format={() => formatSoc(v.soc)}
                style={{ width: 130, marginBottom: 0 }}
              />
              {v.lowSoc && <Tag color="error">{t('monitoring.bus.lowSoc')}</Tag>}
            </Space>
          ),
      },
      {
        title: t('monitoring.bus.lowSoc'),
        dataIndex: 'lowSoc',
        hideInTable: true,
        valueType: 'select',
        fieldProps: { options: [{ value: 'true', label: t('monitoring.bus.lowSocOnly') }] },
      },
      {
        title: t('monitoring.bus.where'),
        dataIndex: 'stationName',
        search: false,
        width: 220,
        render: (_dom, v) =>
          v.chargePointId ? `${v.stationName ?? '-'} · ${v.chargePointId} #${v.connectorId ?? '-'}` : '-',
      },
      {
        title: t('monitoring.common.power'),
        dataIndex: 'powerW',
        search: false,
        width: 100,
        render: (_d, v) => formatPower(v.powerW),
      },
      {
        title: t('monitoring.common.energy'),
        dataIndex: 'energyWh',
        search: false,
        width: 110,
        render: (_d, v) => formatEnergy(v.energyWh),
      },
      dateTimeColumn<MonitorVehicleView>(t('monitoring.common.startedAt'), 'sessionStartedAt'),
      dateTimeColumn<MonitorVehicleView>(t('monitoring.bus.endedAt'), 'sessionEndedAt'),
      { title: t('monitoring.bus.vin'), dataIndex: 'vin', search: false, width: 190 },
    ],
    [t, statusOptions],
  );

  const summary = grid.data?.summary;
  return (
    <GridPage<MonitorVehicleView>
      grid={grid}
      title={t('monitoring.bus.title')}
      columns={columns}
      scrollX={1800}
      toolbarExtra={[
        <Space key="summary" wrap data-testid="bus-summary">
          {summary && (
            <Typography.Text type={summary.lowSoc > 0 ? 'danger' : 'secondary'}>
              {t('monitoring.bus.lowSocCount', { count: summary.lowSoc, percent: LOW_SOC_PERCENT })}
            </Typography.Text>
          )}
          {summary &&
            VEHICLE_CHARGE_STATUSES.map((status) => (
              <Tag key={status} color={VEHICLE_STATUS_COLORS[status]}>
                {t(`monitoring.vehicleStatus.${status}`)} {summary.byStatus[status]}
              </Tag>
            ))}
        </Space>,
        <LiveIndicator key="live" connected={connected} />,
      ]}
      table={{
        onRow: (v) =>
          ({
            style: v.lowSoc ? LOW_SOC_ROW_STYLE : undefined,
            'data-low-soc': v.lowSoc ? 'true' : 'false',
          }) as never,
      }}
    />
  );
}
