import type { ProColumns } from '@ant-design/pro-components';
import { ORDER_OPERATION_ACTIONS } from '@voltdepot/shared-contracts';
import type { OrderOperationRow } from '@voltdepot/console-api-client';
import { Tag } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { dateTimeColumn } from '../../../app/grid/columns';
import { GridPage } from '../../../app/grid/GridPage';
import { billingApi } from '../api/billingApi';
import { exportButton, orderDetailPath, useBillingGrid } from '../components/billingGrid';
import { BILLING_PERMISSIONS } from '../permissions';
import { formatYuan } from '../../../app/format/money';
import { rangeSearchColumn } from '../utils/orderRange';

const FILTER_KEYS = ['start', 'end', 'orderNo', 'operator', 'action'];

/**
 * The order operation log (/operation/orderManage/operationLog): every operator action on orders (the
 * review of held orders), newest first, with the order query's default period, filters and export.
 */
export function OrderOperationsPage() {
  const { t } = useTranslation();
  const grid = useBillingGrid<OrderOperationRow>('orderOperations', billingApi.orderOperations, {
    filters: FILTER_KEYS,
  });
  const actions = useMemo(
    () =>
      ORDER_OPERATION_ACTIONS.map((value) => ({ value, label: t(`billing.operationLog.action.${value}`) })),
    [t],
  );

  const columns = useMemo<ProColumns<OrderOperationRow>[]>(
    () => [
      rangeSearchColumn<OrderOperationRow>(t('billing.operationLog.range')),
      dateTimeColumn<OrderOperationRow>(t('billing.operationLog.at'), 'at'),
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
    <GridPage<OrderOperationRow>
      grid={grid}
      title={t('billing.operationLog.title')}
      texts="billing"
      pageSizeChanger
      columns={columns}
      scrollX={1200}
      toolbar={[
        exportButton(
          BILLING_PERMISSIONS.orderOperationExport,
          'operation-log-export',
          billingApi.exportOrderOperations,
        ),
      ]}
    />
  );
}
