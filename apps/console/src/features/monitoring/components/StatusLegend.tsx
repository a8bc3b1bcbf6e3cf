import { GUN_STATUSES, type GunStatusCounts } from '@voltdepot/shared-contracts';
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { GUN_STATUS_COLORS } from '../liveState';

/** The seven gun states with their colours and, when given, how many guns are in each. */
export function StatusLegend({ counts }: { counts?: GunStatusCounts }) {
  const { t } = useTranslation();
  return (
    <Space size={[4, 4]} wrap data-testid="gun-legend">
      {GUN_STATUSES.map((status) => (
        <Tag key={status} color={GUN_STATUS_COLORS[status]} data-testid={`legend-${status}`}>
          {t(`monitoring.gunStatus.${status}`)}
          {counts ? ` ${counts[status]}` : ''}
        </Tag>
      ))}
    </Space>
  );
}
