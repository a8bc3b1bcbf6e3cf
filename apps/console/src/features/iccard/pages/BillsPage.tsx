import { orderNumberOf } from '@voltdepot/shared-contracts';
import type { ProColumns } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import type { IcBillLine, IcBillSummary } from '@voltdepot/console-api-client';
import { GuardedButton } from '@voltdepot/console-ui';
import { App, Descriptions, Drawer, Space, Table } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pickerNow } from '../../../app/format/businessPicker';
import { formatYuan } from '../../../app/format/money';
import { GridPage } from '../../../app/grid/GridPage';
import { usePagedGrid } from '../../../app/grid/useGrid';
import { useLocale } from '../../../app/providers/useLocale';
import { iccardBillApi } from '../api/iccardBillApi';

/** The button that opens the bills (seeded by the bills migration). */
export const ICCARD_BILL_PERMISSION = 'iccard:bill:query';

const FILTER_KEYS = ['month', 'name', 'kind'] as const;
const KINDS = ['personal', 'group', 'group_sub'] as const;

/** The picker's month as the api takes it (`YYYY-MM`). */
function monthParam(value: string | Dayjs | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value.slice(0, 7) : value.format('YYYY-MM');
}

const yuanColumn = (title: string, key: keyof IcBillSummary): ProColumns<IcBillSummary> => ({
  title,
  dataIndex: key,
  width: 120,
  align: 'right',
  search: false,
  render: (_, row) => formatYuan(row[key] as number),
});

/**
 * The IC-card bills (/iccard/bill): one month's statement figures of every customer account in scope,
 * the month picked in the business time zone (this month first); a row opens its statement with its
 * lines, which downloads as Excel or PDF; the list exports as Excel.
 */
export function BillsPage() {
  const { t } = useTranslation();
  const [open, setOpen] = useState<IcBillSummary>();
  const grid = usePagedGrid<IcBillSummary>({
    listKey: ['iccardBill', 'list'],
    fetch: iccardBillApi.page,
    filters: [...FILTER_KEYS],
    pageSize: 20,
  });
  const kinds = useMemo(() => KINDS.map((value) => ({ value, label: t(`iccardBill.kinds.${value}`) })), [t]);

  const columns = useMemo<ProColumns<IcBillSummary>[]>(
    () => [
      {
        title: t('iccardBill.month'),
        key: 'month',
        dataIndex: 'month',
        valueType: 'dateMonth',
        initialValue: pickerNow(),
        formItemProps: { rules: [{ required: true, message: t('iccardBill.monthRequired') }] },
        fieldProps: { allowClear: false, disabledDate: (d: Dayjs) => d.isAfter(pickerNow(), 'month') },
        search: { transform: (value: string | Dayjs | undefined) => ({ month: monthParam(value) }) },
        width: 90,
        render: (_, row) => row.month,
      },
      { title: t('iccardBill.name'), dataIndex: 'name', width: 150 },
      {
        title: t('iccardBill.kind'),
        dataIndex: 'kind',
        width: 120,
        valueType: 'select',
        fieldProps: { options: kinds },
        render: (_, row) => kinds.find((k) => k.value === row.kind)?.label ?? row.kind,
      },
      { title: t('iccardBill.accountId'), dataIndex: 'accountId', width: 90, search: false },
      yuanColumn(t('iccardBill.openingYuan'), 'openingFen'),
      yuanColumn(t('iccardBill.rechargedYuan'), 'rechargedFen'),
      yuanColumn(t('iccardBill.consumedYuan'), 'consumedFen'),
      yuanColumn(t('iccardBill.refundedYuan'), 'refundedFen'),
      yuanColumn(t('iccardBill.transferredYuan'), 'transferredFen'),
      yuanColumn(t('iccardBill.correctedYuan'), 'correctedFen'),
      yuanColumn(t('iccardBill.closingYuan'), 'closingFen'),
      {
        title: t('iccardBill.orderCount'),
        dataIndex: 'orderCount',
        width: 80,
        align: 'right',
        search: false,
      },
    ],
    [t, kinds],
  );

  return (
    <>
      <GridPage<IcBillSummary>
        grid={grid}
        title={t('iccardBill.title')}
        texts="iccardBill"
        rowKey="accountId"
        pageSizeChanger
        columns={columns}
        scrollX={1500}
        rowActions={[
          {
            key: 'view',
            label: t('iccardBill.view'),
            permission: ICCARD_BILL_PERMISSION,
            testId: (row) => `bill-view-${row.accountId}`,
            onClick: (row) => setOpen(row),
          },
        ]}
        toolbar={[
          {
            key: 'export',
            permission: ICCARD_BILL_PERMISSION,
            testId: 'bill-export',
            onClick: ({ filters, locale }) => iccardBillApi.exportList(filters, locale),
          },
        ]}
      />
      {open && <BillDrawer bill={open} onClose={() => setOpen(undefined)} />}
    </>
  );
}

/** One account's statement of the month: its figures, its lines, its files. */
function BillDrawer({ bill, onClose }: { bill: IcBillSummary; onClose: () => void }) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { message } = App.useApp();
  const statement = useQuery({
    queryKey: ['iccardBill', 'statement', bill.accountId, bill.month],
    queryFn: ({ signal }) => iccardBillApi.statement(bill.accountId, bill.month, signal),
  });
  const summary = statement.data?.summary ?? bill;
  const saved = (name: string | undefined) => {
    if (name) void message.success(t('iccardBill.downloaded', { name }));
  };
  const figures: [string, number][] = [
    [t('iccardBill.openingYuan'), summary.openingFen],
    [t('iccardBill.rechargedYuan'), summary.rechargedFen],
    [t('iccardBill.consumedYuan'), summary.consumedFen],
    [t('iccardBill.refundedYuan'), summary.refundedFen],
    [t('iccardBill.transferredYuan'), summary.transferredFen],
    [t('iccardBill.correctedYuan'), summary.correctedFen],
    [t('iccardBill.closingYuan'), summary.closingFen],
  ];
  return (
    <Drawer
      open
      width={860}
      onClose={onClose}
      title={t('iccardBill.statement', { name: bill.name, month: bill.month })}
      extra={
        <Space>
          <GuardedButton
            data-testid="bill-download-xlsx"
            onClick={async () => saved(await iccardBillApi.downloadXlsx(bill.accountId, bill.month, locale))}
          >
            {t('iccardBill.downloadXlsx')}
          </GuardedButton>
          <GuardedButton
            type="primary"
            data-testid="bill-download-pdf"
            onClick={async () => saved(await iccardBillApi.downloadPdf(bill.accountId, bill.month, locale))}
          >
            {t('iccardBill.downloadPdf')}
          </GuardedButton>
        </Space>
      }
    >
      <Descriptions size="small" column={2} bordered data-testid="bill-summary">
        <Descriptions.Item label={t('iccardBill.name')}>{summary.name}</Descriptions.Item>
        <Descriptions.Item label={t('iccardBill.kind')}>
          {t(`iccardBill.kinds.${summary.kind}`)}
        </Descriptions.Item>
        {figures.map(([label, fen]) => (
          <Descriptions.Item key={label} label={label}>
            {formatYuan(fen)}
          </Descriptions.Item>
        ))}
        <Descriptions.Item label={t('iccardBill.orderCount')}>{summary.orderCount}</Descriptions.Item>
      </Descriptions>
      <Table<IcBillLine>
        style={{ marginTop: 16 }}
        size="small"
        data-testid="bill-lines"
        loading={statement.isLoading}
        rowKey={(line) => `${line.occurredAt}-${line.kind}-${line.reference ?? ''}-${line.balanceAfterFen}`}
        dataSource={statement.data?.lines ?? []}
        pagination={false}
        locale={{ emptyText: t('iccardBill.noLines') }}
        columns={[
          { title: t('iccardBill.occurredAt'), dataIndex: 'occurredAt', width: 170 },
          {
            title: t('iccardBill.lineKind'),
            dataIndex: 'kind',
            width: 120,
            render: (kind: string) => t(`iccardBill.lineKinds.${kind}` as never, { defaultValue: kind }),
          },
          {
            title: t('iccardBill.reference'),
            dataIndex: 'reference',
            render: (r: string | null, line: { kind: string }) => orderNumberOf(line.kind, r) ?? '-',
          },
          {
            title: t('iccardBill.amountYuan'),
            dataIndex: 'amountFen',
            align: 'right',
            width: 110,
            render: (fen: number) => formatYuan(fen),
          },
          {
            title: t('iccardBill.balanceAfterYuan'),
            dataIndex: 'balanceAfterFen',
            align: 'right',
            width: 110,
            render: (fen: number) => formatYuan(fen),
          },
        ]}
      />
    </Drawer>
  );
}
