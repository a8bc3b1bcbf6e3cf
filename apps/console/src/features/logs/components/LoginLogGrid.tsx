import type { LoginLogView } from '@voltdepot/shared-contracts';
import { Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loginLogColumns } from '../columns';
import { LOG_PAGE_SIZE, useLogPage, type LogFilters } from '../hooks/useLogPage';
import { LogFilterForm } from './LogFilterForm';

export function LoginLogGrid() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState<LogFilters>({});
  const query = useLogPage<LoginLogView>('login', page, filters);
  const columns = useMemo(() => loginLogColumns(t), [t]);
  return (
    <>
      <LogFilterForm
        onSearch={(next) => {
          setFilters(next);
          setPage(1);
        }}
      />
      <Table<LoginLogView>
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
