import { ProTable, type ProColumns } from '@ant-design/pro-components';
import type { OccupationOrderPage, OccupationOrderRow } from '@voltdepot/console-api-client';
import { Table, Tag, Typography } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { filtersOf, useGridRequest } from '../../../app/grid/useGridRequest';
import type { QueryParams } from '../../../request';
import { billingApi } from '../api/billingApi';
import { ExportButton } from '../components/ExportButton';
import { orderDetailPath } from '../components/OrderTable';
import { useDictionary } from '../hooks/useDictionary';
import { locationColumns, useLocationOptions } from '../hooks/useOrderOptions';
import { BILLING_PERMISSIONS } from '../permissions';
import { billingQueryKeys } from '../queryKeys';
import { formatDuration, formatYuan } from '../utils/money';
import { INSTANT_FORMAT, rangeSearchColumn } from '../utils/orderRange';

const FILTER_KEYS = ['start', 'end', 'stationId', 'pileId', 'gunId', 'orderNo', 'payStatus', 'feeScope'];

/**
 * Occupation fee orders (/operation/orderManage/occupationOrder): the guns left occupied after charging,
 * what each occupation cost under the station's fee settings, totals and export.
 */
export function OccupationOrdersPage() {
  const { t } = useTranslation();
  const payStatus = useDictionary('pay_status');
  const locations = useLocationOptions();
  // Opened from a charging order (?orderNo=OC...): that order, whenever it was.
  const [search] = useSearchParams();
  const linkedOrderNo = search.get('orderNo') ?? undefined;
  const [totalFen, setTotalFen] = useState(0);
  const lastFilters = useRef<QueryParams>({});
  const request = useGridRequest<OccupationOrderRow, OccupationOrderPage>({
    filters: (params) => filtersOf(params, FILTER_KEYS),
    queryKey: billingQueryKeys.occupationOrders,
    fetch: billingApi.occupationOrders,
    onFilters: (filters) => (lastFilters.current = filters),
    onPage: (page) => setTotalFen(page.totalAmountFen),
  });
  const feeScopes = useMemo(
    () => [
      { value: 'internal', label: t('billing.occupation.internal') },
      { value: 'external', label: t('billing.occupation.external') },
    ],
    [t],
  );

  const columns = useMemo<ProColumns<OccupationOrderRow>[]>(
    () => [
      {
        ...rangeSearchColumn<OccupationOrderRow>(t('billing.occupation.occupiedRange')),
        ...(linkedOrderNo ? { initialValue: undefined } : {}),
      },
      {
        title: t('billing.occupation.orderNo'),
        dataIndex: 'orderNo',
        width: 230,
        fixed: 'left',
        initialValue: linkedOrderNo,
      },
      {
        title: t('billing.occupation.chargingOrderNo'),
        dataIndex: 'chargingOrderNo',
        width: 230,
        search: false,
        render: (_, row) =>
          row.chargingOrderId !== null ? (
            <Link to={orderDetailPath(row.chargingOrderId)}>{row.chargingOrderNo}</Link>
          ) : (
            row.chargingOrderNo
          ),
      },
      ...locationColumns<OccupationOrderRow>(t, locations),
      { title: t('billing.order.card'), dataIndex: 'idTag', width: 120, search: false },
      {
        title: t('billing.occupation.feeScope'),
        dataIndex: 'feeScope',
        width: 100,
        valueType: 'select',
        fieldProps: { options: feeScopes },
        render: (_, row) => feeScopes.find((f) => f.value === row.feeScope)?.label ?? row.feeScope,
      },
      {
        title: t('billing.occupation.occupiedFrom'),
        dataIndex: 'occupiedFrom',
        width: 170,
        search: false,
        render: (_, row) => formatDateTime(row.occupiedFrom),
      },
      {
        title: t('billing.occupation.occupiedTo'),
        dataIndex: 'occupiedTo',
        width: 170,
        search: false,
        render: (_, row) => formatDateTime(row.occupiedTo),
      },
      {
        title: t('billing.occupation.occupied'),
        dataIndex: 'occupiedSeconds',
        width: 100,
        search: false,
        render: (_, row) => formatDuration(row.occupiedSeconds),
      },
      {
        title: t('billing.occupation.rule'),
        key: 'rule',
        width: 220,
        search: false,
        render: (_, row) =>
          t('billing.occupation.ruleText', {
            free: row.freeMinutes,
            interval: row.intervalMinutes,
            price: formatYuan(row.unitPriceFen),
            cap: row.cappedAmountFen ? formatYuan(row.cappedAmountFen) : '-',
          }),
      },
      {
        title: t('billing.occupation.intervals'),
        dataIndex: 'billableIntervals',
        width: 90,
        align: 'right',
        search: false,
      },
      {
        title: t('billing.occupation.amountYuan'),
        dataIndex: 'amountFen',
        width: 110,
        align: 'right',
        search: false,
        render: (_, row) => <Typography.Text strong>{formatYuan(row.amountFen)}</Typography.Text>,
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
    ],
    [t, locations, feeScopes, payStatus, linkedOrderNo],
  );

  return (
    <ProTable<OccupationOrderRow>
      headerTitle={t('billing.occupation.title')}
      rowKey="id"
      columns={columns}
      request={request}
      dateFormatter={(value) => value.format(INSTANT_FORMAT)}
      scroll={{ x: 2300 }}
      search={{ labelWidth: 'auto', defaultCollapsed: false }}
      pagination={{ defaultPageSize: 20, showSizeChanger: true }}
      toolBarRender={() => [
        <ExportButton
          key="export"
          permission={BILLING_PERMISSIONS.occupationOrderExport}
          testId="occupation-export"
          run={(lang) => billingApi.exportOccupationOrders(lastFilters.current, lang)}
        />,
      ]}
      summary={() => (
        <Table.Summary fixed>
          <Table.Summary.Row data-testid="occupation-totals">
            <Table.Summary.Cell index={0} colSpan={12}>
              <Typography.Text strong>{t('billing.occupation.total')}</Typography.Text>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={12} align="right">
              <Typography.Text strong>{formatYuan(totalFen)}</Typography.Text>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={13} />
          </Table.Summary.Row>
        </Table.Summary>
      )}
    />
  );
}
