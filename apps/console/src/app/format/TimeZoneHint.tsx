import { Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBusinessTimeZone } from '../platform/PlatformSettingsContext';
import { utcOffsetLabel } from './businessTime';

/**
 * A small hint naming the business time zone (`UTC+8`, or `Business time UTC+8` with `wording`), its
 * tooltip and accessible name the full zone (`Asia/Shanghai`): beside range pickers and time columns.
 */
export function TimeZoneHint({ wording = false }: { wording?: boolean }) {
  const { t } = useTranslation();
  const zone = useBusinessTimeZone();
  const offset = utcOffsetLabel(Date.now(), zone);
  const explain = t('timeZone.explain', { zone, offset });
  return (
    <Tooltip title={explain}>
      <Typography.Text
        type="secondary"
        style={{ fontSize: 12, fontWeight: 'normal', whiteSpace: 'nowrap' }}
        aria-label={explain}
        data-testid="time-zone-hint"
        data-time-zone={zone}
      >
        {wording ? t('timeZone.businessTime', { offset }) : offset}
      </Typography.Text>
    </Tooltip>
  );
}

/** A column or field title with the zone hint after it (the title keeps its own element). */
export function WithTimeZoneHint({ title, wording }: { title: ReactNode; wording?: boolean }) {
  return (
    <span>
      <span>{title}</span> <TimeZoneHint wording={wording} />
    </span>
  );
}
