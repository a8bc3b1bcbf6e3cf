import { usePermission } from '@voltdepot/console-ui';
import { Card, Empty, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { LogGrid } from '../components/LogGrid';
import { LOG_PERMISSIONS } from '../permissions';

/** Operation and login logs; each tab needs its own permission (the server checks again). */
export function LogsPage() {
  const { t } = useTranslation();
  const canOperation = usePermission(LOG_PERMISSIONS.operation);
  const canLogin = usePermission(LOG_PERMISSIONS.login);
  const tabs = [
    ...(canOperation
      ? [{ key: 'operation', label: t('logs.operationLog'), children: <LogGrid kind="operation" /> }]
      : []),
    ...(canLogin ? [{ key: 'login', label: t('logs.loginLog'), children: <LogGrid kind="login" /> }] : []),
  ];
  return (
    <Card title={t('logs.title')}>
      {tabs.length > 0 ? (
        <Tabs items={tabs} destroyOnHidden />
      ) : (
        <Empty description={t('logs.nothingAllowed')} />
      )}
    </Card>
  );
}
