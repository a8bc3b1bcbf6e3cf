import type { ProColumns } from '@ant-design/pro-components';
import type { IcLedgerRecordPage, IcLedgerRecordView } from '@voltdepot/console-api-client';
import type { LedgerKind } from '@voltdepot/shared-contracts';
import { Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { pickedRangeParams } from '../../../app/format/businessPicker';
import { WithTimeZoneHint } from '../../../app/format/TimeZoneHint';
import { GridPage } from '../../../app/grid/GridPage';
import { formatYuan } from '../../../app/format/money';
import { filtersOf } from '../../../app/grid/useGrid';
import { icCardApi } from '../api/icCardApi';
import { icCardExportButton, useIcCardGrid } from '../hooks/useIcCardGrid';
import { useText } from '../hooks/useText';
import { ICCARD_PERMISSIONS as P } from '../permissions';
import { useRecordColumns } from './recordColumns';

type Range = [Dayjs | string, Dayjs | string] | undefined;

/**
 * Ledger records of some kinds (recharges and refunds, or consumption), searched by kind, card and
 * period (business time, sent as instants), with the sum of the amounts of every matching record.
 */
export function RecordsGrid({
  kinds,
  title,
  testId,
  list,
}: {
  kinds: readonly LedgerKind[];
  title: string;
  testId: string;
  list: 'records' | 'consumptions';
}) {
  const { t } = useText();
  const base = useRecordColumns();
  const grid = useIcCardGrid<IcLedgerRecordView, IcLedgerRecordPage>(list, icCardApi.records, {
    // The kind picked, else every kind of this list.
    filters: (values) => {
      const picked = filtersOf(values, ['kind', 'cardNo', 'from', 'to']);
      return { ...picked, kind: picked.kind ?? kinds.join(',') };
    },
  });
  const columns = useMemo<ProColumns<IcLedgerRecordView>[]>(
    () => [
      {
        title: t('iccard.record.kind'),
        dataIndex: 'kind',
        hideInTable: true,
        valueType: 'select',
        fieldProps: {
          options: kinds.map((kind) => ({ value: kind, label: t(`iccard.recordKind.${kind}`) })),
        },
      },
      {
        title: <WithTimeZoneHint title={t('iccard.record.period')} wording />,
        key: 'period',
        dataIndex: 'period',
        valueType: 'dateTimeRange',
        hideInTable: true,
        colSize: 2,
        fieldProps: { format: 'YYYY-MM-DD HH:mm:ss' },
        search: {
          transform: (value: Range) => {
            const { start, end } = pickedRangeParams(value);
            return { ...(start ? { from: start } : {}), ...(end ? { to: end } : {}) };
          },
        },
      },
      ...base.map((column) => (column.dataIndex === 'kind' ? { ...column, search: false as const } : column)),
    ],
    [t, kinds, base],
  );
  return (
    <GridPage<IcLedgerRecordView>
      grid={grid}
      testId={testId}
      title={title}
      texts="iccard"
      rowKey="transactionId"
      sequence
      columns={columns}
      scrollX={1600}
      toolbarExtra={[
        <Typography.Text key="sum" strong data-testid={`${testId}-sum`}>
          {t('iccard.record.sum', { sum: formatYuan(grid.data?.sumFen ?? 0) })}
        </Typography.Text>,
      ]}
      search={{
        queryTestId: `${testId}-query`,
        buttons: [icCardExportButton('record', P.recordQuery, `${testId}-export`)],
      }}
    />
  );
}
