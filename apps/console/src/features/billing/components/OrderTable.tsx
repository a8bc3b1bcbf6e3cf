import type { ProColumns } from '@ant-design/pro-components';
import type { ChargingOrderPage, ChargingOrderRow, ChargingOrderTotals } from '@voltdepot/console-api-client';
import { ABNORMAL_REASON_CODES } from '@voltdepot/shared-contracts';
import { usePermission } from '@voltdepot/console-ui';
import { Space, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { dateTimeColumn } from '../../../app/grid/columns';
import { GridPage } from '../../../app/grid/GridPage';
import { codeLabel } from '../../../locales/codeLabel';
import { billingApi } from '../api/billingApi';
import { useDictionary } from '../hooks/useDictionary';
import { locationColumns, payStatusColumn, useLocationOptions, yuanColumn } from '../hooks/useOrderOptions';
import { BILLING_PERMISSIONS } from '../permissions';
import { formatDuration, formatKwh, formatYuan } from '../../../app/format/money';
import { linkedRange, rangeSearchColumn } from '../utils/orderRange';
import { AbnormalReasons } from './AbnormalReasons';
import { AmendOrderModal } from './AmendOrderModal';
import { exportButton, orderDetailPath, useBillingGrid } from './billingGrid';
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
  'abnormalReason',
] as const;

const HELD = { held: 'true' };

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
  const canReview = usePermission(BILLING_PERMISSIONS.orderReview);
  const canAmend = usePermission(BILLING_PERMISSIONS.orderAmend);
  const payStatus = useDictionary('pay_status');
  const orderStatus = useDictionary('order_status');
  const reviewStatus = useDictionary('approval_status');
  const startTypes = useDictionary('start_type');
  const locations = useLocationOptions();
  const [reviewing, setReviewing] = useState<ChargingOrderRow | undefined>();
  const [amending, setAmending] = useState<ChargingOrderRow | undefined>();
  // Opened with a period in the address (the home page's today's orders): that period, not the default.
  const [search] = useSearchParams();
  const linkedStart = search.get('start');
  const linkedEnd = search.get('end');
  const grid = useBillingGrid<ChargingOrderRow, ChargingOrderPage>('orders', billingApi.orders, {
    filters: FILTER_KEYS,
    fixed: held ? HELD : undefined,
  });
  const totals = grid.data?.totals ?? EMPTY_TOTALS;

  const columns = useMemo<ProColumns<ChargingOrderRow>[]>(() => {
    const linked = linkedRange(new URLSearchParams({ start: linkedStart ?? '', end: linkedEnd ?? '' }));
    const cols: ProColumns<ChargingOrderRow>[] = [
      {
        ...rangeSearchColumn<ChargingOrderRow>(t('billing.order.stopRange')),
        ...(linked ? { initialValue: linked } : {}),
      },
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
      dateTimeColumn<ChargingOrderRow>(t('billing.order.startedAt'), 'startedAt'),
      dateTimeColumn<ChargingOrderRow>(t('billing.order.stoppedAt'), 'stoppedAt'),
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
      yuanColumn<ChargingOrderRow>(t('billing.order.electricityYuan'), 'electricityFen'),
      yuanColumn<ChargingOrderRow>(t('billing.order.serviceYuan'), 'serviceFen'),
      yuanColumn<ChargingOrderRow>(t('billing.order.discountYuan'), 'discountFen', { width: 100 }),
      yuanColumn<ChargingOrderRow>(t('billing.order.totalYuan'), 'totalFen', { strong: true }),
      payStatusColumn<ChargingOrderRow>(t, payStatus),
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
        render: (_, row) => codeLabel(t, 'billing.stopReason', row.endReason),
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
          // The filter of the reasons (repeatedStop: the repeated records), not a column.
          title: t('billing.reason.filter'),
          dataIndex: 'abnormalReason',
          hideInTable: true,
          valueType: 'select',
          fieldProps: {
            options: ABNORMAL_REASON_CODES.map((code) => ({
              value: code,
              label: t(`billing.reason.code.${code}`),
            })),
          },
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
      );
    }
    return cols;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [
    t,
    held,
    locations,
    payStatus.options,
    orderStatus.options,
    reviewStatus.options,
    startTypes.options,
    linkedStart,
    linkedEnd,
  ]);

  return (
    <>
      <GridPage<ChargingOrderRow>
        grid={grid}
        title={
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
        texts="billing"
        pageSizeChanger
        columns={columns}
        scrollX={held ? 2600 : 2200}
        toolbar={[exportButton(BILLING_PERMISSIONS.orderExport, 'order-export', billingApi.exportOrders)]}
        rowActions={
          held
            ? [
                {
                  key: 'review',
                  label: t('billing.review.action'),
                  permission: BILLING_PERMISSIONS.orderReview,
                  visible: (row) => row.reviewStatus === 'pending',
                  testId: (row) => `review-${row.id}`,
                  onClick: (row) => setReviewing(row),
                },
                {
                  key: 'amend',
                  label: t('billing.amend.action'),
                  permission: BILLING_PERMISSIONS.orderAmend,
                  testId: (row) => `amend-${row.id}`,
                  onClick: (row) => setAmending(row),
                },
              ]
            : []
        }
        actionsWidth={140}
        table={{
          summary: () => (
            <Table.Summary fixed>
              <Table.Summary.Row data-testid="order-totals">
                <Table.Summary.Cell index={0} colSpan={9}>
                  <Typography.Text strong>
                    {t('billing.order.totals', { count: totals.count })}
                  </Typography.Text>
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
                <Table.Summary.Cell index={15} colSpan={held ? (canReview || canAmend ? 6 : 5) : 3} />
              </Table.Summary.Row>
            </Table.Summary>
          ),
        }}
      />
      {reviewing && <ReviewOrderModal order={reviewing} onClose={() => setReviewing(undefined)} />}
      {amending && <AmendOrderModal order={amending} onClose={() => setAmending(undefined)} />}
    </>
  );
}
