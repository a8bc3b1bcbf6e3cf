import { RightOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Row, Skeleton, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { usePageAllowed } from '../../../app/router/usePageAllowed';
import { homeApi } from '../api/homeApi';
import { figuresOf } from '../figures';
import { homeQueryKeys } from '../queryKeys';

/** Live figures move by the minute; the page reads them again while it stays open. */
const REFRESH_MS = 60_000;

/** Today's figures of the user's data scope, each card linking to the screen with the detail. */
export function TodayFigures() {
  const { t } = useTranslation();
  const allowed = usePageAllowed();
  const today = useQuery({
    queryKey: homeQueryKeys.today(),
    queryFn: ({ signal }) => homeApi.today(signal),
    refetchInterval: REFRESH_MS,
  });

  if (today.isError) {
    return (
      <Alert
        type="warning"
        showIcon
        message={t('home.loadFailed')}
        action={<Button onClick={() => void today.refetch()}>{t('home.retry')}</Button>}
        data-testid="home-figures-error"
      />
    );
  }
  const overview = today.data;
  if (!overview) return <Skeleton active />;

  return (
    <Card
      title={t('home.today', { date: overview.businessDay.date })}
      extra={<Typography.Text type="secondary">{t('home.scope')}</Typography.Text>}
      data-testid="home-figures"
    >
      <Row gutter={[16, 16]}>
        {figuresOf(overview).map((figure) => (
          <Col key={figure.key} xs={24} sm={12} xl={8}>
            <Card size="small" data-testid={`home-figure-${figure.key}`}>
              <Statistic
                title={t(`home.figures.${figure.key}`)}
                value={figure.value}
                valueStyle={figure.key === 'faults' && overview.faults.open > 0 ? { color: '#cf1322' } : {}}
              />
              {figure.key === 'faults' && (
                <Typography.Text type="secondary">
                  {t('home.faultsDetail', { guns: overview.faults.guns, piles: overview.faults.piles })}
                </Typography.Text>
              )}
              {allowed(figure.page) && (
                <div>
                  <Link to={figure.to} data-testid={`home-link-${figure.key}`}>
                    {t('home.details')} <RightOutlined />
                  </Link>
                </div>
              )}
            </Card>
          </Col>
        ))}
      </Row>
    </Card>
  );
}
