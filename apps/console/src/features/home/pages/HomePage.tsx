import { LinkOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { usePermission } from '@voltdepot/console-ui';
import { HOME_PERMISSION } from '@voltdepot/shared-contracts';
import { Card, Col, Descriptions, Empty, Row, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { usePlatformSettings } from '../../../app/platform/PlatformSettingsContext';
import { authApi } from '../../../app/session/authApi';
import { useCurrentUser } from '../../../app/session/CurrentUserContext';
import { useRoleText } from '../../../app/session/useRoleText';
import { sessionQueryKeys } from '../../../app/session/queryKeys';
import { TodayFigures } from '../components/TodayFigures';

/**
 * The landing page: who is signed in, today's figures of their data scope (with the home resource) each
 * linking to its screen, and the systems configured for this platform.
 */
export function HomePage() {
  const { t } = useTranslation();
  const roleText = useRoleText();
  const { user } = useCurrentUser();
  const { systemList } = usePlatformSettings();
  const canSeeFigures = usePermission(HOME_PERMISSION);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const ext = useQuery({
    queryKey: sessionQueryKeys.userExt(),
    queryFn: async ({ signal }) => (await authApi.userExt(signal)) ?? null,
  });

  return (
    <Row gutter={[16, 16]}>
      <Col span={24}>
        <Card>
          <Typography.Title level={3}>
            {t('home.greeting', { name: user.realName || user.username })}
          </Typography.Title>
          <Descriptions size="small" column={{ xs: 1, md: 2, xl: 4 }}>
            <Descriptions.Item label={t('home.username')}>{user.username}</Descriptions.Item>
            <Descriptions.Item label={t('home.organization')}>{user.organizationName}</Descriptions.Item>
            <Descriptions.Item label={t('home.roles')}>
              {user.roles.map((role) => roleText.name(role)).join(', ') || '-'}
            </Descriptions.Item>
            <Descriptions.Item label={t('home.lastLogin')}>
              {ext.data?.lastLoginAt ? formatDateTime(ext.data.lastLoginAt) : '-'}
            </Descriptions.Item>
          </Descriptions>
          <Typography.Text type="secondary" data-testid="home-now">
            {t('home.now', { time: formatDateTime(now) })}
          </Typography.Text>
        </Card>
      </Col>
      {canSeeFigures && (
        <Col span={24}>
          <TodayFigures />
        </Col>
      )}
      <Col span={24}>
        <Card title={t('home.systems')}>
          {systemList.length === 0 ? (
            <Empty description={t('home.noSystems')} />
          ) : (
            <Row gutter={[16, 16]}>
              {systemList.map((system) => (
                <Col key={`${system.name}|${system.url}`} xs={24} md={12} xl={6}>
                  <Card hoverable size="small">
                    <Typography.Link href={system.url} target="_blank" rel="noopener noreferrer">
                      <LinkOutlined /> {system.name}
                    </Typography.Link>
                  </Card>
                </Col>
              ))}
            </Row>
          )}
        </Card>
      </Col>
    </Row>
  );
}
