import { Badge, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';

/** A green "live" badge while the push connection is up; grey with the reason while it reconnects. */
export function LiveIndicator({ connected }: { connected: boolean }) {
  const { t } = useTranslation();
  return (
    <Tooltip title={connected ? undefined : t('monitoring.common.reconnecting')}>
      <Badge
        status={connected ? 'processing' : 'default'}
        text={t('monitoring.common.live')}
        data-testid="live-indicator"
        data-connected={connected ? 'true' : 'false'}
      />
    </Tooltip>
  );
}
