import { LockOutlined } from '@ant-design/icons';
import { Button, Card, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

/** Placeholder until the Core API serves sign-in (user name, password, verification code). */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Card title={t('login.title')} style={{ maxWidth: 560, margin: '48px auto' }}>
      <Result
        icon={<LockOutlined />}
        title={t('login.pending')}
        subTitle={t('login.explanation')}
        extra={
          <Button type="primary" onClick={() => void navigate('/home')}>
            {t('login.toHome')}
          </Button>
        }
      />
    </Card>
  );
}
