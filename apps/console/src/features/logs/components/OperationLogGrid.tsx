import { DownloadOutlined } from '@ant-design/icons';
import { apiPath } from '@voltdepot/console-api-client';
import type { OperationLogView } from '@voltdepot/shared-contracts';
import { GuardedButton, Permission } from '@voltdepot/console-ui';
import { App, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../../app/providers/useLocale';
import { request } from '../../../request';
import { operationLogColumns } from '../columns';
import { LOG_PAGE_SIZE, useLogPage, type LogFilters } from '../hooks/useLogPage';
import { LOG_PERMISSIONS } from '../permissions';
import { LogFilterForm } from './LogFilterForm';

export function OperationLogGrid() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { message } = App.useApp();
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState<LogFilters>({});
  const query = useLogPage<OperationLogView>('operation', page, filters);
  const columns = useMemo(() => operationLogColumns(t), [t]);

  const exportLog = async () => {
    const savedAs = await request.exportExcel(apiPath('LogsController_exportOperations'), {
      params: { ...filters, lang: locale },
    });
    if (savedAs) void message.success(t('logs.exported', { name: savedAs }));
  };

  return (
    <>
      <LogFilterForm
        onSearch={(next) => {
          setFilters(next);
          setPage(1);
        }}
        extra={
          <Permission code={LOG_PERMISSIONS.operation}>
            <GuardedButton icon={<DownloadOutlined />} onClick={exportLog}>
              {t('logs.export')}
            </GuardedButton>
          </Permission>
        }
      />
      <Table<OperationLogView>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={query.data?.list}
        loading={query.isFetching}
        scroll={{ x: 1000 }}
        pagination={{
          current: page,
          pageSize: LOG_PAGE_SIZE,
          total: query.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t('common.total', { total }),
          onChange: setPage,
        }}
      />
    </>
  );
}
