import { orderNumberOf } from '@voltdepot/shared-contracts';
import type { ProColumns } from '@ant-design/pro-components';
import type { IcLedgerRecordView } from '@voltdepot/console-api-client';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { dateTimeColumn } from '../../../app/grid/columns';
import { formatYuan } from '../../../app/format/money';
import { useText } from '../hooks/useText';
import { cardDetailPath } from './CardGrid';

/** The columns of ledger records (recharges, refunds, consumption): amounts and balances before and after. */
export function useRecordColumns(): ProColumns<IcLedgerRecordView>[] {
  const { t } = useText();
  return useMemo<ProColumns<IcLedgerRecordView>[]>(
    () => [
      { title: t('iccard.record.transactionId'), dataIndex: 'transactionId', width: 110, search: false },
      {
        title: t('iccard.record.kind'),
        dataIndex: 'kind',
        width: 130,
        search: false,
        render: (_, row) => t(`iccard.recordKind.${row.kind}`, { defaultValue: '-' }),
      },
      { title: t('iccard.record.customer'), dataIndex: 'customerName', width: 130, search: false },
      {
        title: t('iccard.record.cardNo'),
        dataIndex: 'cardNo',
        width: 150,
        render: (_, row) => (row.cardNo ? <Link to={cardDetailPath(row.cardNo)}>{row.cardNo}</Link> : '-'),
      },
      {
        title: t('iccard.record.amount'),
        dataIndex: 'amountFen',
        width: 120,
        search: false,
        align: 'right',
        render: (_, row) => formatYuan(row.amountFen),
      },
      {
        title: t('iccard.record.balanceBefore'),
        dataIndex: 'balanceBeforeFen',
        width: 150,
        search: false,
        align: 'right',
        render: (_, row) => formatYuan(row.balanceBeforeFen),
      },
      {
        title: t('iccard.record.balanceAfter'),
        dataIndex: 'balanceAfterFen',
        width: 150,
        search: false,
        align: 'right',
        render: (_, row) => formatYuan(row.balanceAfterFen),
      },
      {
        title: t('iccard.record.reference'),
        dataIndex: 'reference',
        width: 200,
        search: false,
        render: (_, row) => orderNumberOf(row.kind, row.reference) ?? '-',
      },
      {
        title: t('iccard.record.operator'),
        dataIndex: 'operatorName',
        width: 120,
        search: false,
        render: (_, row) => row.operatorName ?? '-',
      },
      dateTimeColumn<IcLedgerRecordView>(t('iccard.record.occurredAt'), 'occurredAt'),
    ],
    [t],
  );
}
