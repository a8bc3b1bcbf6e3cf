import type { MonitorPileView } from '@voltdepot/shared-contracts';
import { Badge, Card, Empty, Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { PileCommands } from './PileCommands';
import { PileGunCards } from './PileGunCards';

/** A pile with its connection state, its commands and a card per gun. */
export function PileCard({ pile, now }: { pile: MonitorPileView; now: number }) {
  const { t } = useTranslation();
  return (
    <Card
      size="small"
      data-testid={`pile-card-${pile.chargePointId}`}
      data-online={pile.online ? 'true' : 'false'}
      title={
        <Space size={8} wrap>
          <Badge status={pile.online ? 'success' : 'default'} />
          <span>{pile.name ?? pile.chargePointId}</span>
          <Typography.Text type="secondary" style={{ fontWeight: 'normal' }}>
            {pile.chargePointId}
          </Typography.Text>
          <Tooltip
            title={
              pile.lastSeenAt
                ? `${t('monitoring.common.lastSeen')} ${formatDateTime(pile.lastSeenAt)}`
                : undefined
            }
          >
            <Typography.Text type={pile.online ? 'success' : 'secondary'} style={{ fontWeight: 'normal' }}>
              {pile.online ? t('monitoring.common.online') : t('monitoring.common.offline')}
              {pile.onlineSince
                ? ` · ${t('monitoring.common.since')} ${formatDateTime(pile.onlineSince)}`
                : ''}
            </Typography.Text>
          </Tooltip>
        </Space>
      }
      extra={<PileCommands pile={pile} />}
    >
      {pile.guns.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <PileGunCards pile={pile} now={now} col={{ xs: 24, sm: 12, xl: 8, xxl: 6 }} />
      )}
    </Card>
  );
}
