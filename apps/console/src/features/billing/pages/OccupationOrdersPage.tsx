import type { ProColumns } from '@ant-design/pro-components';
import type { OccupationOrderPage, OccupationOrderRow } from '@voltdepot/console-api-client';
import { Table, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { dateTimeColumn } from '../../../app/grid/columns';
import { GridPage } from '../../../app/grid/GridPage';
import { billingApi } from '../api/billingApi';
import { exportButton, orderDetailPath, useBillingGrid } from '../components/billingGrid';
import { useDictionary } from '../hooks/useDictionary';
import { locationColumns, payStatusColumn, useLocationOptions, yuanColumn } from '../hooks/useOrderOptions';
import { BILLING_PERMISSIONS } from '../permissions';
import { formatDuration, formatYuan } from '../../../app/format/money';
import { rangeSearchColumn } from '../utils/orderRange';

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
  const grid = useBillingGrid<OccupationOrderRow, OccupationOrderPage>(
    'occupationOrders',
    billingApi.occupationOrders,
    { filters: FILTER_KEYS },
  );
  const totalFen = grid.data?.totalAmountFen ?? 0;
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
      dateTimeColumn<OccupationOrderRow>(t('billing.occupation.occupiedFrom'), 'occupiedFrom'),
      dateTimeColumn<OccupationOrderRow>(t('billing.occupation.occupiedTo'), 'occupiedTo'),
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
      yuanColumn<OccupationOrderRow>(t('billing.occupation.amountYuan'), 'amountFen', { strong: true }),
      payStatusColumn<OccupationOrderRow>(t, payStatus),
    ],
    [t, locations, feeScopes, payStatus, linkedOrderNo],
  );

  return (
    <GridPage<OccupationOrderRow>
      grid={grid}
      title={t('billing.occupation.title')}
      texts="billing"
      pageSizeChanger
      columns={columns}
      scrollX={2300}
      toolbar={[
        exportButton(
          BILLING_PERMISSIONS.occupationOrderExport,
          'occupation-export',
          billingApi.exportOccupationOrders,
        ),
      ]}
      table={{
        summary: () => (
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
        ),
      }}
    />
  );
}
