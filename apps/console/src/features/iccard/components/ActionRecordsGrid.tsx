import type { ProColumns } from '@ant-design/pro-components';
import type { IcCardActionView } from '@voltdepot/console-api-client';
import { IC_CARD_ACTIONS, IC_CARD_MESSAGE_CODES } from '@voltdepot/shared-contracts';
import { Tag } from 'antd';
import { useMemo } from 'react';
import { useText } from '../hooks/useText';
import { Link } from 'react-router-dom';
import { dateTimeColumn } from '../../../app/grid/columns';
import { GridPage } from '../../../app/grid/GridPage';
import { formatYuan } from '../../../app/format/money';
import { icCardApi } from '../api/icCardApi';
import { icCardExportButton, useIcCardGrid } from '../hooks/useIcCardGrid';
import { ICCARD_PERMISSIONS as P } from '../permissions';
import { cardDetailPath, STATUS_COLORS } from './CardGrid';

/** The columns of card action records (the grid and the card detail). */
export function useActionColumns(search: boolean): ProColumns<IcCardActionView>[] {
  const { t } = useText();
  return useMemo<ProColumns<IcCardActionView>[]>(
    () => [
      {
        title: t('iccard.card.cardNo'),
        dataIndex: 'cardNo',
        width: 150,
        search,
        render: (_, row) => <Link to={cardDetailPath(row.cardNo)}>{row.cardNo}</Link>,
      },
      { title: t('iccard.card.customer'), dataIndex: 'customerName', width: 130, search: false },
      {
        title: t('iccard.actionRecord.action'),
        dataIndex: 'action',
        width: 130,
        valueType: 'select',
        search,
        fieldProps: {
          options: IC_CARD_ACTIONS.map((code) => ({ value: code, label: t(`iccard.action.${code}`) })),
        },
        render: (_, row) => t(`iccard.action.${row.action}`),
      },
      {
        title: t('iccard.actionRecord.statusBefore'),
        dataIndex: 'statusBefore',
        width: 120,
        search: false,
        render: (_, row) => (
          <Tag color={STATUS_COLORS[row.statusBefore]}>{t(`iccard.status.${row.statusBefore}`)}</Tag>
        ),
      },
      {
        title: t('iccard.actionRecord.statusAfter'),
        dataIndex: 'statusAfter',
        width: 120,
        search: false,
        render: (_, row) => (
          <Tag color={STATUS_COLORS[row.statusAfter]}>{t(`iccard.status.${row.statusAfter}`)}</Tag>
        ),
      },
      {
        title: t('iccard.actionRecord.amount'),
        dataIndex: 'amountFen',
        width: 110,
        search: false,
        align: 'right',
        render: (_, row) => formatYuan(row.amountFen),
      },
      {
        title: t('iccard.actionRecord.balanceBefore'),
        dataIndex: 'balanceBeforeFen',
        width: 140,
        search: false,
        align: 'right',
        render: (_, row) => formatYuan(row.balanceBeforeFen),
      },
      {
        title: t('iccard.actionRecord.balanceAfter'),
        dataIndex: 'balanceAfterFen',
        width: 140,
        search: false,
        align: 'right',
        render: (_, row) => formatYuan(row.balanceAfterFen),
      },
      {
        title: t('iccard.actionRecord.notes'),
        dataIndex: 'notes',
        width: 220,
        search: false,
        render: (_, row) =>
          row.notes.length === 0
            ? '-'
            : row.notes
                .map((note) =>
                  (IC_CARD_MESSAGE_CODES as readonly string[]).includes(note)
                    ? t(`iccard.message.${note}`)
                    : note,
                )
                .join('; '),
      },
      dateTimeColumn<IcCardActionView>(t('iccard.actionRecord.occurredAt'), 'occurredAt'),
    ],
    [t, search],
  );
}

/** The card action records (make, loss, recharge, refund...), with amounts and balances before and after. */
export function ActionRecordsGrid() {
  const grid = useIcCardGrid<IcCardActionView>('actions', icCardApi.actions, {
    filters: ['cardNo', 'action'],
  });
  const columns = useActionColumns(true);
  return (
    <GridPage<IcCardActionView>
      grid={grid}
      testId="iccard-actions"
      texts="iccard"
      sequence
      columns={columns}
      scrollX={1600}
      search={{
        queryTestId: 'action-query',
        buttons: [icCardExportButton('action', P.recordQuery, 'action-export')],
      }}
    />
  );
}
