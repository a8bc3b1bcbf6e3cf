import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export function WelcomePage() {
  const { t } = useTranslation();
  return (
    <Card>
      <Typography.Title level={3}>{t('welcome.title')}</Typography.Title>
      <Typography.Paragraph>{t('welcome.intro')}</Typography.Paragraph>
    </Card>
  );
}
