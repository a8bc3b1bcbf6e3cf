import { LOW_SOC_PERCENT, type MonitorGunView } from '@voltdepot/shared-contracts';
import { Card, Descriptions, Progress, Space, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { codeLabel } from '../../../locales/codeLabel';
import { formatDuration, formatEnergy, formatPower, formatSoc } from '../format';
import { GUN_STATUS_COLORS, LOW_SOC_COLOR } from '../liveState';
import { GunStatusTag } from './GunStatusTag';

export type GunCardProps = {
  chargePointId: string;
  gun: MonitorGunView;
  /** Milliseconds now, for "since" (the page ticks it). */
  now: number;
  /** Gun commands (stop, unlock), shown to users who may command piles. */
  actions?: ReactNode;
};

/** One gun: status colour, since when, and while in a session its power, energy, SoC and vehicle. */
export function GunCard({ chargePointId, gun, now, actions }: GunCardProps) {
  const { t } = useTranslation();
  const color = GUN_STATUS_COLORS[gun.status];
  const none = t('monitoring.common.none');
  return (
    <Card
      size="small"
      data-testid={`gun-card-${chargePointId}-${gun.connectorId}`}
      data-status={gun.status}
      style={{ borderTop: `4px solid ${color}`, height: '100%' }}
      title={
        <Space size={6}>
          <span>{gun.name ?? `${t('monitoring.common.gun')} ${gun.connectorId}`}</span>
          <GunStatusTag status={gun.status} />
        </Space>
      }
      extra={
        gun.since ? (
          <Tooltip title={`${t('monitoring.common.since')} ${formatDateTime(gun.since)}`}>
            <Typography.Text type="secondary" data-testid="gun-since">
              {formatDuration(gun.since, now)}
            </Typography.Text>
          </Tooltip>
        ) : null
      }
      actions={actions ? [actions] : undefined}
    >
      <Descriptions size="small" column={1} colon={false} styles={{ label: { width: 72 } }}>
        <Descriptions.Item label={t('monitoring.common.power')}>
          <span data-testid="gun-power">{formatPower(gun.powerW)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('monitoring.common.energy')}>
          <span data-testid="gun-energy">{formatEnergy(gun.energyWh)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('monitoring.common.soc')}>
          {gun.soc === null ? (
            none
          ) : (
            <Progress
              percent={gun.soc}
              size="small"
              strokeColor={gun.soc < LOW_SOC_PERCENT ? LOW_SOC_COLOR : undefined}
              format={() => formatSoc(gun.soc)}
              data-testid="gun-soc"
              style={{ width: 140, marginBottom: 0 }}
            />
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('monitoring.common.vehicle')}>
          <span data-testid="gun-vehicle">{gun.vehicle?.plate ?? gun.idTag ?? none}</span>
        </Descriptions.Item>
        {gun.errorCode && gun.errorCode !== 'NoError' ? (
          <Descriptions.Item label={t('monitoring.gunStatus.fault')}>
            <Typography.Text type="danger">
              {codeLabel(t, 'monitoring.errorCode', gun.errorCode)}
              {gun.info ? ` (${gun.info})` : ''}
            </Typography.Text>
          </Descriptions.Item>
        ) : null}
      </Descriptions>
    </Card>
  );
}
