import { ArrowLeftOutlined } from '@ant-design/icons';
import { ProDescriptions } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import type { StageTypeCode } from '@voltdepot/shared-contracts';
import type {
  ChargingOrderDetail,
  OrderBandRow,
  OrderLogEntry,
  OrderVersionRow,
  RepeatStopRow,
} from '@voltdepot/console-api-client';
import { GuardedButton, usePermission } from '@voltdepot/console-ui';
import { Alert, Button, Card, Empty, Result, Skeleton, Space, Table, Tag, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { codeLabel } from '../../../locales/codeLabel';
import { billingApi } from '../api/billingApi';
import { AbnormalReasons } from '../components/AbnormalReasons';
import { AmendOrderModal } from '../components/AmendOrderModal';
import { BAND_COLORS } from '../components/bandColors';
import { OrderCharts } from '../components/OrderCharts';
import { ReviewOrderModal } from '../components/ReviewOrderModal';
import { useDictionary } from '../hooks/useDictionary';
import { BILLING_PERMISSIONS } from '../permissions';
import { billingQueryKeys } from '../queryKeys';
import { formatDuration, formatKwh, formatYuan } from '../../../app/format/money';

function LogText({ entry }: { entry: OrderLogEntry }) {
  const { t } = useTranslation();
  switch (entry.action) {
    case 'started':
      return <>{t('billing.log.started', { card: entry.detail ?? '-' })}</>;
    case 'stopped':
      return (
        <>
          {t('billing.log.stopped', {
            reason: entry.detail ? codeLabel(t, 'billing.stopReason', entry.detail) : '-',
          })}
        </>
      );
    case 'settled':
      return <>{t('billing.log.settled', { amount: formatYuan(entry.amountFen) })}</>;
    case 'held':
      return (
        <>
          {t('billing.log.held')}
          <AbnormalReasons reasons={entry.reasons} />
        </>
      );
    case 'approved':
      return (
        <>
          {t('billing.log.approved', {
            by: entry.by ?? '-',
            reason: entry.detail ?? '',
            amount: formatYuan(entry.amountFen),
          })}
        </>
      );
    case 'rejected':
      return <>{t('billing.log.rejected', { by: entry.by ?? '-', reason: entry.detail ?? '' })}</>;
    case 'amended':
      return (
        <>
          {t('billing.log.amended', {
            by: entry.by ?? '-',
            reason: entry.detail ?? '',
            amount: formatYuan(entry.amountFen),
          })}
        </>
      );
    case 'completed':
      return <>{t('billing.log.completed', { amount: formatYuan(entry.amountFen) })}</>;
    default:
      return null;
  }
}

const signed = (text: string, n: number) => (n > 0 ? `+${text}` : text);

/** Every version of the order: as settled, then each change with who, why and the difference. */
function VersionsCard({ versions }: { versions: OrderVersionRow[] }) {
  const { t } = useTranslation();
  const payStatus = useDictionary('pay_status');
  return (
    <Card title={t('billing.version.title')} size="small">
      <Table<OrderVersionRow>
        size="small"
        rowKey="version"
        pagination={false}
        data-testid="order-versions"
        dataSource={versions}
        columns={[
          { title: t('billing.version.version'), dataIndex: 'version', width: 70 },
          {
            title: t('billing.version.kindTitle'),
            dataIndex: 'kind',
            render: (_, v) =>
              v.kind === 'settled' ? t('billing.version.settled') : t(`billing.version.kind.${v.kind}`),
          },
          { title: t('billing.version.at'), dataIndex: 'at', render: (_, v) => formatDateTime(v.at) },
          { title: t('billing.version.by'), dataIndex: 'by', render: (_, v) => v.by ?? '-' },
          { title: t('billing.version.reason'), dataIndex: 'reason', render: (_, v) => v.reason ?? '-' },
          {
            title: t('billing.amend.meterStop'),
            dataIndex: 'meterStopWh',
            align: 'right',
            render: (_, v) => formatKwh(v.meterStopWh),
          },
          {
            title: t('billing.order.energyKwh'),
            dataIndex: 'energyWh',
            align: 'right',
            render: (_, v) => formatKwh(v.energyWh),
          },
          {
            title: t('billing.order.totalYuan'),
            dataIndex: 'totalFen',
            align: 'right',
            render: (_, v) => formatYuan(v.totalFen),
          },
          {
            title: t('billing.order.payStatus'),
            dataIndex: 'payStatus',
            render: (_, v) => payStatus.label(v.payStatus),
          },
          {
            title: t('billing.version.energyDelta'),
            dataIndex: 'energyDeltaWh',
            align: 'right',
            render: (_, v) => signed(formatKwh(v.energyDeltaWh), v.energyDeltaWh),
          },
          {
            title: t('billing.version.totalDelta'),
            dataIndex: 'totalDeltaFen',
            align: 'right',
            render: (_, v) => signed(formatYuan(v.totalDeltaFen), v.totalDeltaFen),
          },
        ]}
      />
    </Card>
  );
}

/** The second StopTransactions of the order's transaction (the first one is billed). */
function RepeatStopsCard({ stops }: { stops: RepeatStopRow[] }) {
  const { t } = useTranslation();
  return (
    <Card title={t('billing.version.repeats')} size="small">
      <Table<RepeatStopRow>
        size="small"
        rowKey={(r) => `${r.stoppedAt}|${r.meterStopWh}|${r.reason}`}
        pagination={false}
        data-testid="order-repeat-stops"
        dataSource={stops}
        columns={[
          {
            title: t('billing.version.repeatStoppedAt'),
            dataIndex: 'stoppedAt',
            render: (_, r) => formatDateTime(r.stoppedAt),
          },
          {
            title: t('billing.version.repeatMeterStop'),
            dataIndex: 'meterStopWh',
            align: 'right',
            render: (_, r) => formatKwh(r.meterStopWh),
          },
          {
            title: t('billing.version.repeatReason'),
            dataIndex: 'reason',
            render: (_, r) => codeLabel(t, 'billing.stopReason', r.reason),
          },
          {
            title: '',
            dataIndex: 'disagrees',
            render: (_, r) =>
              r.disagrees ? <Tag color="warning">{t('billing.version.disagrees')}</Tag> : null,
          },
        ]}
      />
    </Card>
  );
}

const LOG_COLORS: Record<OrderLogEntry['action'], string> = {
  started: 'blue',
  stopped: 'gray',
  settled: 'green',
  held: 'red',
  approved: 'green',
  rejected: 'red',
  amended: 'orange',
  completed: 'green',
};

/** The session (order) detail: /report/components/session?id=<order id>. */
export function OrderDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const id = Number(search.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const canReview = usePermission(BILLING_PERMISSIONS.orderReview);
  const canAmend = usePermission(BILLING_PERMISSIONS.orderAmend);
  const payStatus = useDictionary('pay_status');
  const orderStatus = useDictionary('order_status');
  const reviewStatus = useDictionary('approval_status');
  const stageTypes = useDictionary('charging_period_type');
  const startTypes = useDictionary('start_type');
  const [reviewing, setReviewing] = useState(false);
  const [amending, setAmending] = useState(false);
  const query = useQuery({
    queryKey: billingQueryKeys.order(id),
    queryFn: ({ signal }) => billingApi.order(id, signal),
    enabled: valid,
  });

  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(-1)}>
      {t('billing.back')}
    </Button>
  );
  if (!valid || (query.isFetched && !query.data))
    return <Result status="404" title={t('billing.detail.notFound')} extra={back} />;
  if (!query.data) return <Skeleton active />;
  const order: ChargingOrderDetail = query.data;

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="order-detail">
      <Card
        title={
          <Space>
            {back}
            <span>{t('billing.detail.title', { orderNo: order.orderNo })}</span>
          </Space>
        }
        extra={
          <Space>
            {canReview && order.reviewStatus === 'pending' && (
              <GuardedButton type="primary" data-testid="order-review" onClick={() => setReviewing(true)}>
                {t('billing.review.action')}
              </GuardedButton>
            )}
            {canAmend && (
              <GuardedButton data-testid="order-amend" onClick={() => setAmending(true)}>
                {t('billing.amend.action')}
              </GuardedButton>
            )}
          </Space>
        }
      >
        {order.abandonRule && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            data-testid="order-abandoned"
            message={t('billing.version.abandoned', { rule: t(`billing.version.rule.${order.abandonRule}`) })}
          />
        )}
        {order.abnormalReasons.length > 0 && (
          <Alert
            type={order.reviewStatus === 'pending' ? 'warning' : 'info'}
            showIcon
            style={{ marginBottom: 16 }}
            message={`${t('billing.order.abnormalReasons')} · ${reviewStatus.label(order.reviewStatus)}`}
            description={<AbnormalReasons reasons={order.abnormalReasons} />}
          />
        )}
        <ProDescriptions<ChargingOrderDetail>
          column={{ xs: 1, md: 2, xl: 3 }}
          dataSource={order}
          columns={[
            { title: t('billing.order.orderNo'), dataIndex: 'orderNo', copyable: true },
            { title: t('billing.order.station'), render: () => order.stationName ?? '-' },
            {
              title: t('billing.order.pile'),
              render: () => `${order.pileName ?? '-'} (${order.chargePointId})`,
            },
            { title: t('billing.order.gun'), render: () => order.gunName ?? String(order.connectorId) },
            { title: t('billing.order.card'), render: () => order.idTag ?? '-' },
            { title: t('billing.order.vehicle'), render: () => order.vehiclePlate ?? '-' },
            { title: t('billing.order.startedAt'), render: () => formatDateTime(order.startedAt) || '-' },
            { title: t('billing.order.stoppedAt'), render: () => formatDateTime(order.stoppedAt) },
            { title: t('billing.order.duration'), render: () => formatDuration(order.durationSeconds) },
            { title: t('billing.detail.meterStart'), render: () => formatKwh(order.meterStartWh) },
            { title: t('billing.detail.meterStop'), render: () => formatKwh(order.meterStopWh) },
            { title: t('billing.order.energyKwh'), render: () => formatKwh(order.energyWh) },
            {
              title: t('billing.detail.startSoc'),
              render: () => (order.startSoc === null ? '-' : `${order.startSoc}%`),
            },
            {
              title: t('billing.detail.endSoc'),
              render: () => (order.endSoc === null ? '-' : `${order.endSoc}%`),
            },
            {
              title: t('billing.order.endReason'),
              render: () => codeLabel(t, 'billing.stopReason', order.endReason),
            },
            { title: t('billing.detail.startMode'), render: () => startTypes.label(order.startMode) },
            { title: t('billing.detail.pricePlan'), render: () => order.pricePlanName ?? '-' },
            { title: t('billing.detail.discountPlan'), render: () => order.discountPlanName ?? '-' },
            { title: t('billing.order.electricityYuan'), render: () => formatYuan(order.electricityFen) },
            { title: t('billing.order.serviceYuan'), render: () => formatYuan(order.serviceFen) },
            { title: t('billing.order.discountYuan'), render: () => formatYuan(order.discountFen) },
            {
              title: t('billing.order.totalYuan'),
              render: () => <Typography.Text strong>{formatYuan(order.totalFen)}</Typography.Text>,
            },
            {
              title: t('billing.detail.occupationFee'),
              render: () =>
                order.occupationOrderNo ? (
                  <Link
                    to={`/operation/orderManage/occupationOrder?orderNo=${encodeURIComponent(order.occupationOrderNo)}`}
                    data-testid="order-occupation-link"
                    title={order.occupationOrderNo}
                  >
                    {formatYuan(order.occupationFeeFen)}
                  </Link>
                ) : (
                  t('billing.detail.occupationNone')
                ),
            },
            {
              title: t('billing.detail.totalWithOccupation'),
              render: () => (
                <Typography.Text strong data-testid="order-total-with-occupation">
                  {formatYuan(order.totalWithOccupationFen)}
                </Typography.Text>
              ),
            },
            { title: t('billing.order.payStatus'), render: () => payStatus.label(order.payStatus) },
            { title: t('billing.order.orderStatus'), render: () => orderStatus.label(order.orderStatus) },
            { title: t('billing.detail.settledAt'), render: () => formatDateTime(order.settledAt) },
          ]}
        />
      </Card>
      <OrderCharts order={order} />
      <Card title={t('billing.detail.bands')} size="small">
        <Table<OrderBandRow>
          size="small"
          rowKey="stageType"
          pagination={false}
          data-testid="order-bands"
          dataSource={order.bands}
          columns={[
            {
              title: t('billing.pricePlan.stageType'),
              dataIndex: 'stageType',
              render: (v: StageTypeCode) => <Tag color={BAND_COLORS[v]}>{stageTypes.label(v)}</Tag>,
            },
            {
              title: t('billing.order.energyKwh'),
              dataIndex: 'energyWh',
              align: 'right',
              render: (v: number) => formatKwh(v),
            },
            {
              title: t('billing.order.electricityYuan'),
              dataIndex: 'electricityFen',
              align: 'right',
              render: (v: number) => formatYuan(v),
            },
            {
              title: t('billing.order.serviceYuan'),
              dataIndex: 'serviceFen',
              align: 'right',
              render: (v: number) => formatYuan(v),
            },
            {
              title: t('billing.order.totalYuan'),
              dataIndex: 'totalFen',
              align: 'right',
              render: (v: number) => formatYuan(v),
            },
          ]}
          summary={(rows) => (
            <Table.Summary.Row>
              <Table.Summary.Cell index={0}>{t('billing.detail.bandTotal')}</Table.Summary.Cell>
              {(['energyWh', 'electricityFen', 'serviceFen', 'totalFen'] as const).map((key, i) => {
                const sum = rows.reduce((acc, r) => acc + r[key], 0);
                return (
                  <Table.Summary.Cell key={key} index={i + 1} align="right">
                    {key === 'energyWh' ? formatKwh(sum) : formatYuan(sum)}
                  </Table.Summary.Cell>
                );
              })}
            </Table.Summary.Row>
          )}
        />
      </Card>
      <VersionsCard versions={order.versions} />
      {order.repeatStops.length > 0 && <RepeatStopsCard stops={order.repeatStops} />}
      <Card title={t('billing.detail.log')} size="small" data-testid="order-log">
        {order.log.length ? (
          <Timeline
            items={order.log.map((entry) => ({
              color: LOG_COLORS[entry.action],
              children: (
                <>
                  <Typography.Text type="secondary">{formatDateTime(entry.at)}</Typography.Text>{' '}
                  <LogText entry={entry} />
                </>
              ),
            }))}
          />
        ) : (
          <Empty />
        )}
      </Card>
      {reviewing && <ReviewOrderModal order={order} onClose={() => setReviewing(false)} />}
      {amending && <AmendOrderModal order={order} onClose={() => setAmending(false)} />}
    </Space>
  );
}
