import { RightOutlined } from '@ant-design/icons';
import { Card, Col, Empty, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSystemTitle } from '../../../app/platform/PlatformSettingsContext';
import { usePageAllowed } from '../../../app/router/usePageAllowed';

/** The screens a newcomer usually starts with, in the order of a working day. */
const START_PAGES = [
  { key: 'stationMonitor', path: '/operation/stationMonitor' },
  { key: 'pileMonitor', path: '/operation/pileMonitor' },
  { key: 'busList', path: '/operation/busList' },
  { key: 'orderQuery', path: '/operation/orderManage/orderQuery' },
  { key: 'abnormalOrder', path: '/operation/orderManage/abnormalOrder' },
  { key: 'pricePlan', path: '/operation/pricePlan' },
  { key: 'stations', path: '/basic/station' },
  { key: 'alerts', path: '/msg/alerts' },
  { key: 'users', path: '/sys/user' },
] as const;

/** A short orientation: what the console is for and links to the screens this user may open. */
export function WelcomePage() {
  const { t } = useTranslation();
  const title = useSystemTitle();
  const allowed = usePageAllowed();
  const pages = START_PAGES.filter((page) => allowed(page.path));
  return (
    <Card>
      <Typography.Title level={3}>{t('welcome.title', { title })}</Typography.Title>
      <Typography.Paragraph>{t('welcome.intro')}</Typography.Paragraph>
      <Typography.Paragraph>
        {t('welcome.home')}{' '}
        <Link to="/home" data-testid="welcome-home">
          {t('welcome.homeLink')}
        </Link>
      </Typography.Paragraph>
      <Typography.Title level={4}>{t('welcome.start')}</Typography.Title>
      {pages.length === 0 ? (
        <Empty description={t('welcome.noLinks')} />
      ) : (
        <Row gutter={[16, 16]}>
          {pages.map((page) => (
            <Col key={page.key} xs={24} md={12} xl={8}>
              <Card
                size="small"
                title={
                  <Link to={page.path} data-testid={`welcome-link-${page.key}`}>
                    {t(`welcome.links.${page.key}.title`)} <RightOutlined />
                  </Link>
                }
              >
                {t(`welcome.links.${page.key}.text`)}
              </Card>
            </Col>
          ))}
        </Row>
      )}
    </Card>
  );
}
