import type { MonitorPileView } from '@voltdepot/shared-contracts';
import { Badge, Card, Col, Empty, Row, Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { GunCard } from './GunCard';
import { GunCommands, PileCommands } from './PileCommands';

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
        <Row gutter={[12, 12]}>
          {pile.guns.map((gun) => (
            <Col key={gun.connectorId} xs={24} sm={12} xl={8} xxl={6}>
              <GunCard
                chargePointId={pile.chargePointId}
                gun={gun}
                now={now}
                actions={<GunCommands pile={pile} gun={gun} />}
              />
            </Col>
          ))}
        </Row>
      )}
    </Card>
  );
}
