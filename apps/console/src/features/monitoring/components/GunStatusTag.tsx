import type { GunStatus } from '@voltdepot/shared-contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { GUN_STATUS_COLORS } from '../liveState';

export function GunStatusTag({ status }: { status: GunStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={GUN_STATUS_COLORS[status]} data-testid="gun-status" style={{ marginInlineEnd: 0 }}>
      {t(`monitoring.gunStatus.${status}`)}
    </Tag>
  );
}
