import { Card, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/format/formatDateTime';

export function HomePage() {
  const { t } = useTranslation();
  const [openedAt] = useState(() => Date.now());
  return (
    <Card>
      <Typography.Title level={3}>{t('home.title')}</Typography.Title>
      <Typography.Paragraph>{t('home.intro')}</Typography.Paragraph>
      <Typography.Text type="secondary">{t('home.now', { time: formatDateTime(openedAt) })}</Typography.Text>
    </Card>
  );
}
