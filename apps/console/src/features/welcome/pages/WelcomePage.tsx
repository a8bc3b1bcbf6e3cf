import { Card, Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSystemTitle } from '../../../app/platform/PlatformSettingsContext';

const areas = ['stations', 'dispatch', 'cards', 'reconciliation', 'workOrders', 'alerts'] as const;

export function WelcomePage() {
  const { t } = useTranslation();
  const title = useSystemTitle();
  return (
    <Card>
      <Typography.Title level={3}>{t('welcome.title', { title })}</Typography.Title>
      <Typography.Paragraph>{t('welcome.intro')}</Typography.Paragraph>
      <Row gutter={[16, 16]}>
        {areas.map((area) => (
          <Col key={area} xs={24} md={12} xl={8}>
            <Card size="small" title={t(`welcome.areas.${area}.title`)}>
              {t(`welcome.areas.${area}.text`)}
            </Card>
          </Col>
        ))}
      </Row>
    </Card>
  );
}
