import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns, type ProTableProps } from '@ant-design/pro-components';
import { GuardedButton, Permission } from '@voltdepot/console-ui';
import type { GridPage } from '@voltdepot/shared-contracts';
import { useMemo, useRef, type MutableRefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useGridRequest } from '../../../app/grid/useGridRequest';
import type { QueryParams } from '../../../request';
import { MSG_PAGE_SIZE } from '../api/msgApi';
import { msgQueryKeys, type MsgResource } from '../queryKeys';

export type MsgTableProps<T extends { id: number }> = {
  resource: MsgResource;
  columns: ProColumns<T>[];
  fetchPage: (page: number, size: number, filters: QueryParams, signal?: AbortSignal) => Promise<GridPage<T>>;
  /** Shows the add button (next to query) for users holding `addPermission`. */
  onAdd?: () => void;
  addPermission?: string;
  actionRef?: MutableRefObject<ActionType | undefined>;
  scrollX?: number;
  expandable?: ProTableProps<T, Record<string, unknown>>['expandable'];
  'data-testid'?: string;
};

/**
 * The grid of every message-centre screen: a ProTable with the search form's query and add buttons,
 * the sequence column, `{ list, total }` pages of 10 read through the query cache.
 */
export function MsgTable<T extends { id: number }>({
  resource,
  columns,
  fetchPage,
  onAdd,
  addPermission,
  actionRef: givenRef,
  scrollX = 1100,
  expandable,
  'data-testid': testId,
}: MsgTableProps<T>) {
  const { t } = useTranslation();
  const ownRef = useRef<ActionType>();
  const actionRef = givenRef ?? ownRef;
  const request = useGridRequest<T>({
    queryKey: (page, size, filters) => msgQueryKeys.page(resource, { page, size, ...filters }),
    fetch: fetchPage,
  });

  const withSequence = useMemo<ProColumns<T>[]>(
    () => [
      {
        title: t('messages.common.sequence'),
        key: 'sequence',
        width: 80,
        search: false,
        render: (_dom, _row, index) => {
          const page = actionRef.current?.pageInfo?.current ?? 1;
          const size = actionRef.current?.pageInfo?.pageSize ?? MSG_PAGE_SIZE;
          return (page - 1) * size + index + 1;
        },
      },
      ...columns,
    ],
    [columns, t, actionRef],
  );

  return (
    <div data-testid={testId}>
      <ProTable<T>
        rowKey="id"
        actionRef={actionRef}
        columns={withSequence}
        request={request}
        options={false}
        toolBarRender={false}
        cardBordered
        scroll={{ x: scrollX }}
        expandable={expandable}
        pagination={{
          pageSize: MSG_PAGE_SIZE,
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
              data-testid="msg-query"
              onClick={() => searchConfig.form?.submit()}
            >
              {t('messages.common.query')}
            </GuardedButton>,
            ...(onAdd && addPermission
              ? [
                  <Permission key="add" code={addPermission}>
                    <GuardedButton icon={<PlusOutlined />} data-testid="msg-add" onClick={onAdd}>
                      {t('messages.common.add')}
                    </GuardedButton>
                  </Permission>,
                ]
              : []),
          ],
        }}
      />
    </div>
  );
}
