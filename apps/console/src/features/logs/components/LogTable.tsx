import { SearchOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { GuardedButton } from '@voltdepot/console-ui';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { QueryParams } from '../../../request';
import { LOG_PAGE_SIZE, useLogRequest } from '../hooks/useLogRequest';
import type { LogKind } from '../queryKeys';

/** A log grid: ProTable with the search form (query button, plus `extra`), pages of 10 from the cache. */
export function LogTable<T extends { id: number }>({
  kind,
  columns,
  extra,
  onFilters,
}: {
  kind: LogKind;
  columns: ProColumns<T>[];
  extra?: ReactNode;
  onFilters?: (filters: QueryParams) => void;
}) {
  const { t } = useTranslation();
  const request = useLogRequest<T>(kind, onFilters);
  return (
    <div data-testid={`log-table-${kind}`}>
      <ProTable<T>
        rowKey="id"
        size="middle"
        columns={columns}
        request={request}
        options={false}
        toolBarRender={false}
        scroll={{ x: 1000 }}
        pagination={{
          pageSize: LOG_PAGE_SIZE,
          showSizeChanger: false,
          showTotal: (total) => t('common.total', { total }),
        }}
        search={{
          labelWidth: 'auto',
          defaultCollapsed: false,
          collapseRender: false,
          optionRender: (searchConfig) => [
            <GuardedButton
              key="query"
              type="primary"
              icon={<SearchOutlined />}
              data-testid="log-query"
              onClick={() => searchConfig.form?.submit()}
            >
              {t('common.query')}
            </GuardedButton>,
            ...(extra ? [<span key="extra">{extra}</span>] : []),
          ],
        }}
      />
    </div>
  );
}
