import { DownloadOutlined } from '@ant-design/icons';
import { apiPath, type OperationLogView } from '@voltdepot/console-api-client';
import { GuardedButton, Permission } from '@voltdepot/console-ui';
import { App } from 'antd';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../../app/providers/useLocale';
import { request, type QueryParams } from '../../../request';
import { operationLogColumns } from '../columns';
import { LOG_PERMISSIONS } from '../permissions';
import { LogTable } from './LogTable';

/** The operation log, searchable by period, user name, method, path and result; exported as searched. */
export function OperationLogGrid() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { message } = App.useApp();
  const filters = useRef<QueryParams>({});
  const columns = useMemo(() => operationLogColumns(t), [t]);

  const exportLog = async () => {
    const savedAs = await request.exportExcel(apiPath('LogsController_exportOperations'), {
      params: { ...filters.current, lang: locale },
    });
    if (savedAs) void message.success(t('logs.exported', { name: savedAs }));
  };

  return (
    <LogTable<OperationLogView>
      kind="operation"
      columns={columns}
      onFilters={(next) => {
        filters.current = next;
      }}
      extra={
        <Permission code={LOG_PERMISSIONS.operation}>
          <GuardedButton icon={<DownloadOutlined />} data-testid="log-export" onClick={exportLog}>
            {t('logs.export')}
          </GuardedButton>
        </Permission>
      }
    />
  );
}
