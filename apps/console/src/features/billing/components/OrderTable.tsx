import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import type { ChargingOrderPage, ChargingOrderRow, ChargingOrderTotals } from '@voltdepot/console-api-client';
import { usePermission } from '@voltdepot/console-ui';
import { Space, Table, Tag, Typography } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { filtersOf, useGridRequest } from '../../../app/grid/useGridRequest';
import type { QueryParams } from '../../../request';
import { billingApi } from '../api/billingApi';
import { useDictionary } from '../hooks/useDictionary';
import { locationColumns, useLocationOptions } from '../hooks/useOrderOptions';
import { BILLING_PERMISSIONS } from '../permissions';
import { billingQueryKeys } from '../queryKeys';
import { formatDuration, formatKwh, formatYuan } from '../utils/money';
import { INSTANT_FORMAT, rangeSearchColumn } from '../utils/orderRange';
import { AbnormalReasons } from './AbnormalReasons';
import { ExportButton } from './ExportButton';
import { ReviewOrderModal } from './ReviewOrderModal';

/** The filters the order list understands. */
const FILTER_KEYS = [
  'start',
  'end',
  'stationId',
  'pileId',
  'gunId',
  'vehicle',
  'card',
  'orderNo',
  'payStatus',
  'orderStatus',
  'reviewStatus',
] as const;

export const orderFilters = (params: Record<string, unknown>): QueryParams => filtersOf(params, FILTER_KEYS);

/** The detail page of an order (the spec's session detail under /report/components/). */
export const orderDetailPath = (id: number) => `/report/components/session?id=${id}`;

const EMPTY_TOTALS: ChargingOrderTotals = {
  count: 0,
  energyWh: 0,
  electricityFen: 0,
  serviceFen: 0,
  totalFen: 0,
  discountFen: 0,
};

/**
 * The order list of the order query (every order) and of the abnormal orders (`held`): filters with
 * the default range yesterday 00:00:00 to today 23:59:59, totals of every matching order, export.
 */
export function OrderTable({ held = false, title }: { held?: boolean; title: string }) {
  const { t } = useTranslation();
  const actionRef = useRef<ActionType>(null);
  const canReview = usePermission(BILLING_PERMISSIONS.orderReview);
  const payStatus = useDictionary('pay_status');
  const orderStatus = useDictionary('order_status');
  const reviewStatus = useDictionary('approval_status');
  const startTypes = useDictionary('start_type');
  const locations = useLocationOptions();
  const [totals, setTotals] = useState<ChargingOrderTotals>(EMPTY_TOTALS);
  const [reviewing, setReviewing] = useState<ChargingOrderRow | undefined>();
  const lastFilters = useRef<QueryParams>({});
  const fixed: QueryParams = held ? { held: 'true' } : {};

  const request = useGridRequest<ChargingOrderRow, ChargingOrderPage>({
    filters: (params) => ({ ...orderFilters(params), ...fixed }),
    queryKey: billingQueryKeys.orders,
    fetch: billingApi.orders,
    onFilters: (filters) => (lastFilters.current = filters),
    onPage: (page) => setTotals(page.totals),
  });

  const columns = useMemo<ProColumns<ChargingOrderRow>[]>(() => {
    const cols: ProColumns<ChargingOrderRow>[] = [
      rangeSearchColumn<ChargingOrderRow>(t('billing.order.stopRange')),
      {
        title: t('billing.order.orderNo'),
        dataIndex: 'orderNo',
        width: 230,
        fixed: 'left',
        render: (_, row) => (
          <Link to={orderDetailPath(row.id)} data-testid={`order-link-${row.id}`}>
            {row.orderNo}
          </Link>
        ),
      },
      ...locationColumns<ChargingOrderRow>(t, locations),
      {
        title: t('billing.order.vehicle'),
        dataIndex: 'vehicle',
        width: 120,
        render: (_, row) => row.vehiclePlate ?? '-',
      },
      {
        title: t('billing.order.card'),
        dataIndex: 'card',
        width: 130,
        render: (_, row) => row.idTag ?? '-',
      },
      {
        title: t('billing.order.startedAt'),
        dataIndex: 'startedAt',
        width: 170,
        search: false,
        render: (_, row) => formatDateTime(row.startedAt) || '-',
      },
      {
        title: t('billing.order.stoppedAt'),
        dataIndex: 'stoppedAt',
        width: 170,
        search: false,
        render: (_, row) => formatDateTime(row.stoppedAt),
      },
      {
        title: t('billing.order.duration'),
        dataIndex: 'durationSeconds',
        width: 100,
        search: false,
        render: (_, row) => formatDuration(row.durationSeconds),
      },
      {
        title: t('billing.order.energyKwh'),
        dataIndex: 'energyWh',
        width: 110,
        align: 'right',
        search: false,
        render: (_, row) => formatKwh(row.energyWh),
      },
      {
        title: t('billing.order.soc'),
        key: 'soc',
        width: 100,
        search: false,
        render: (_, row) => (row.startSoc === null ? '-' : `${row.startSoc}% → ${row.endSoc ?? '-'}%`),
      },
      {
        title: t('billing.order.electricityYuan'),
        dataIndex: 'electricityFen',
        width: 110,
        align: 'right',
        search: false,
        render: (_, row) => formatYuan(row.electricityFen),
      },
      {
        title: t('billing.order.serviceYuan'),
        dataIndex: 'serviceFen',
        width: 110,
        align: 'right',
        search: false,
        render: (_, row) => formatYuan(row.serviceFen),
      },
      {
        title: t('billing.order.discountYuan'),
        dataIndex: 'discountFen',
        width: 100,
        align: 'right',
        search: false,
        render: (_, row) => formatYuan(row.discountFen),
      },
      {
        title: t('billing.order.totalYuan'),
        dataIndex: 'totalFen',
        width: 110,
        align: 'right',
        search: false,
        render: (_, row) => <Typography.Text strong>{formatYuan(row.totalFen)}</Typography.Text>,
      },
      {
        title: t('billing.order.payStatus'),
        dataIndex: 'payStatus',
        width: 100,
        valueType: 'select',
        fieldProps: { options: payStatus.options },
        render: (_, row) => (
          <Tag color={row.payStatus === 3 ? 'error' : row.payStatus === 1 ? 'success' : 'default'}>
            {payStatus.label(row.payStatus)}
          </Tag>
        ),
      },
      {
        title: t('billing.order.orderStatus'),
        dataIndex: 'orderStatus',
        width: 100,
        valueType: 'select',
        fieldProps: { options: orderStatus.options },
        render: (_, row) => orderStatus.label(row.orderStatus),
      },
      {
        title: t('billing.order.endReason'),
        dataIndex: 'endReason',
        width: 130,
        search: false,
      },
      {
        title: t('billing.detail.startMode'),
        dataIndex: 'startMode',
        width: 100,
        search: false,
        render: (_, row) => startTypes.label(row.startMode),
      },
      {
        title: t('billing.detail.occupationFee'),
        dataIndex: 'occupationFeeFen',
        width: 120,
        align: 'right',
        search: false,
        render: (_, row) =>
          row.occupationOrderNo ? (
            <Link
              to={`/operation/orderManage/occupationOrder?orderNo=${encodeURIComponent(row.occupationOrderNo)}`}
              title={row.occupationOrderNo}
            >
              {formatYuan(row.occupationFeeFen)}
            </Link>
          ) : (
            '-'
          ),
      },
    ];
    if (held) {
      cols.push(
        {
          title: t('billing.order.abnormalReasons'),
          dataIndex: 'abnormalReasons',
          width: 240,
          search: false,
          render: (_, row) => <AbnormalReasons reasons={row.abnormalReasons} />,
        },
        {
          title: t('billing.order.reviewStatus'),
          dataIndex: 'reviewStatus',
          width: 110,
          valueType: 'select',
          fieldProps: { options: reviewStatus.options },
          render: (_, row) => (
            <Tag
              color={
                row.reviewStatus === 'pending'
                  ? 'warning'
                  : row.reviewStatus === 'audited'
                    ? 'success'
                    : 'default'
              }
            >
              {reviewStatus.label(row.reviewStatus)}
            </Tag>
          ),
        },
        {
          title: t('billing.actions'),
          key: 'actions',
          width: 100,
          fixed: 'right',
          search: false,
          hideInTable: !canReview,
          render: (_, row) =>
            row.reviewStatus === 'pending' ? (
              <Typography.Link data-testid={`review-${row.id}`} onClick={() => setReviewing(row)}>
                {t('billing.review.action')}
              </Typography.Link>
            ) : null,
        },
      );
    }
    return cols;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [
    t,
    held,
    canReview,
    locations,
    payStatus.options,
    orderStatus.options,
    reviewStatus.options,
    startTypes.options,
  ]);

  return (
    <>
      <ProTable<ChargingOrderRow>
        headerTitle={
          <Space size="middle" wrap>
            <span>{title}</span>
            <Typography.Text type="secondary" data-testid="order-totals-line">
              {t('billing.order.totalsLine', {
                count: totals.count,
                energy: formatKwh(totals.energyWh),
                electricity: formatYuan(totals.electricityFen),
                service: formatYuan(totals.serviceFen),
                total: formatYuan(totals.totalFen),
              })}
            </Typography.Text>
          </Space>
        }
        rowKey="id"
        actionRef={actionRef}
        columns={columns}
        request={request}
        dateFormatter={(value) => value.format(INSTANT_FORMAT)}
        scroll={{ x: held ? 2600 : 2200 }}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        pagination={{ defaultPageSize: 20, showSizeChanger: true }}
        toolBarRender={() => [
          <ExportButton
            key="export"
            permission={BILLING_PERMISSIONS.orderExport}
            testId="order-export"
            run={(lang) => billingApi.exportOrders(lastFilters.current, lang)}
          />,
        ]}
        summary={() => (
          <Table.Summary fixed>
            <Table.Summary.Row data-testid="order-totals">
              <Table.Summary.Cell index={0} colSpan={9}>
                <Typography.Text strong>{t('billing.order.totals', { count: totals.count })}</Typography.Text>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={9} align="right">
                {formatKwh(totals.energyWh)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={10} />
              <Table.Summary.Cell index={11} align="right">
                {formatYuan(totals.electricityFen)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={12} align="right">
                {formatYuan(totals.serviceFen)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={13} align="right">
                {formatYuan(totals.discountFen)}
              </Table.Summary.Cell>
              <Table.Summary.Cell index={14} align="right">
                <Typography.Text strong>{formatYuan(totals.totalFen)}</Typography.Text>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={15} colSpan={held ? (canReview ? 6 : 5) : 3} />
            </Table.Summary.Row>
          </Table.Summary>
        )}
      />
      {reviewing && (
        <ReviewOrderModal
          order={reviewing}
          onClose={() => {
            setReviewing(undefined);
            void actionRef.current?.reload();
          }}
        />
      )}
    </>
  );
}
