import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { ORDER_OPERATION_ACTIONS } from '@voltdepot/shared-contracts';
import type { OrderOperationRow } from '@voltdepot/console-api-client';
import { Tag } from 'antd';
import { useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { filtersOf, useGridRequest } from '../../../app/grid/useGridRequest';
import type { QueryParams } from '../../../request';
import { billingApi } from '../api/billingApi';
import { ExportButton } from '../components/ExportButton';
import { orderDetailPath } from '../components/OrderTable';
import { BILLING_PERMISSIONS } from '../permissions';
import { billingQueryKeys } from '../queryKeys';
import { formatYuan } from '../utils/money';
import { INSTANT_FORMAT, rangeSearchColumn } from '../utils/orderRange';

const FILTER_KEYS = ['start', 'end', 'orderNo', 'operator', 'action'];

/**
 * The order operation log (/operation/orderManage/operationLog): every operator action on orders (the
 * review of held orders), newest first, with the order query's default period, filters and export.
 */
export function OrderOperationsPage() {
  const { t } = useTranslation();
  const lastFilters = useRef<QueryParams>({});
  const request = useGridRequest<OrderOperationRow>({
    filters: (params) => filtersOf(params, FILTER_KEYS),
    queryKey: billingQueryKeys.orderOperations,
    fetch: billingApi.orderOperations,
    onFilters: (filters) => (lastFilters.current = filters),
  });
  const actions = useMemo(
    () =>
      ORDER_OPERATION_ACTIONS.map((value) => ({ value, label: t(`billing.operationLog.action.${value}`) })),
    [t],
  );

  const columns = useMemo<ProColumns<OrderOperationRow>[]>(
    () => [
      rangeSearchColumn<OrderOperationRow>(t('billing.operationLog.range')),
      {
        title: t('billing.operationLog.at'),
        dataIndex: 'at',
        width: 170,
        search: false,
        render: (_, row) => formatDateTime(row.at),
      },
      {
        title: t('billing.operationLog.actionTitle'),
        dataIndex: 'action',
        width: 110,
        valueType: 'select',
        fieldProps: { options: actions },
        render: (_, row) => (
          <Tag color={row.action === 'approved' ? 'success' : 'error'}>
            {actions.find((a) => a.value === row.action)?.label ?? row.action}
          </Tag>
        ),
      },
      { title: t('billing.operationLog.operator'), dataIndex: 'operator', width: 120 },
      {
        title: t('billing.order.orderNo'),
        dataIndex: 'orderNo',
        width: 230,
        render: (_, row) => <Link to={orderDetailPath(row.orderId)}>{row.orderNo}</Link>,
      },
      { title: t('billing.order.station'), dataIndex: 'stationName', width: 160, search: false },
      {
        title: t('billing.operationLog.detail'),
        dataIndex: 'detail',
        width: 260,
        ellipsis: true,
        search: false,
      },
      {
        title: t('billing.operationLog.amountYuan'),
        dataIndex: 'amountFen',
        width: 110,
        align: 'right',
        search: false,
        render: (_, row) => (row.amountFen === null ? '-' : formatYuan(row.amountFen)),
      },
    ],
    [t, actions],
  );

  return (
    <ProTable<OrderOperationRow>
      headerTitle={t('billing.operationLog.title')}
      rowKey="id"
      columns={columns}
      request={request}
      dateFormatter={(value) => value.format(INSTANT_FORMAT)}
      scroll={{ x: 1200 }}
      search={{ labelWidth: 'auto', defaultCollapsed: false }}
      pagination={{ defaultPageSize: 20, showSizeChanger: true }}
      toolBarRender={() => [
        <ExportButton
          key="export"
          permission={BILLING_PERMISSIONS.orderOperationExport}
          testId="operation-log-export"
          run={(lang) => billingApi.exportOrderOperations(lastFilters.current, lang)}
        />,
      ]}
    />
  );
}
