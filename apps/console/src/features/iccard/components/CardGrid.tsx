import type { ProColumns } from '@ant-design/pro-components';
import type { IcCardView } from '@voltdepot/console-api-client';
import {
  CARD_STATUSES,
  type CardStatus,
  type CardType,
  type IcCardAction,
  type IcCardChip,
} from '@voltdepot/shared-contracts';
import { Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useText } from '../hooks/useText';
import { Link } from 'react-router-dom';
import { dateTimeColumn } from '../../../app/grid/columns';
import { GridPage, type RowAction } from '../../../app/grid/GridPage';
import { formatYuan } from '../../../app/format/money';
import type { QueryParams } from '../../../request';
import { icCardApi } from '../api/icCardApi';
import { actionEnabled, actionOf, ROW_ACTIONS, type ActionCard } from '../hooks/cardActionFlow';
import { icCardExportButton, useIcCardGrid } from '../hooks/useIcCardGrid';
import { ICCARD_PERMISSIONS as P } from '../permissions';
import { CardActionModal, type FollowUp } from './CardActionModal';
import { CardFormModal } from './CardFormModal';
import { ReaderIndicator } from './ReaderIndicator';

export const STATUS_COLORS: Record<CardStatus, string> = {
  notMade: 'default',
  normal: 'success',
  occupied: 'processing',
  lost: 'warning',
  cancelled: 'default',
  invalid: 'error',
};

/** Where a card's detail is (the spec's icCard detail under /report/components/). */
export const cardDetailPath = (cardNo: string) =>
  `/report/components/icCard?cardNo=${encodeURIComponent(cardNo)}`;

type Operation = { action: IcCardAction; card: ActionCard; certificateNumber?: string };

/**
 * The cards of one chip or one card type, with the card actions as row buttons: each enabled in exactly
 * the statuses the state machine allows it (`statusesAllowing`), each run in CardActionModal.
 */
export function CardGrid({
  chip,
  cardType,
  testId,
  title,
}: {
  chip?: IcCardChip;
  cardType?: CardType;
  testId: string;
  title?: string;
}) {
  const { t } = useText();
  const [registering, setRegistering] = useState(false);
  const [operation, setOperation] = useState<Operation>();
  const fixed = useMemo<QueryParams>(
    () => ({
      ...(chip ? { chip } : {}),
      ...(cardType !== undefined ? { cardType: String(cardType) } : {}),
    }),
    [chip, cardType],
  );
  const grid = useIcCardGrid<IcCardView>('cards', icCardApi.cards, {
    filters: ['cardNo', 'status', 'customerId'],
    fixed,
    variant: `${chip ?? ''}:${cardType ?? ''}`,
  });
  const columns = useMemo<ProColumns<IcCardView>[]>(
    () => [
      {
        title: t('iccard.card.cardNo'),
        dataIndex: 'cardNo',
        width: 160,
        render: (_, row) => <Link to={cardDetailPath(row.cardNo)}>{row.cardNo}</Link>,
      },
      {
        title: t('iccard.card.status'),
        dataIndex: 'status',
        width: 110,
        valueType: 'select',
        fieldProps: {
          options: CARD_STATUSES.map((code) => ({ value: code, label: t(`iccard.status.${code}`) })),
        },
        render: (_, row) => (
          <Tag color={STATUS_COLORS[row.status]} data-testid={`card-status-${row.cardNo}`}>
            {t(`iccard.status.${row.status}`)}
          </Tag>
        ),
      },
      { title: t('iccard.card.customer'), dataIndex: 'customerName', width: 140, search: false },
      {
        title: t('iccard.card.balance'),
        dataIndex: 'balanceFen',
        width: 120,
        search: false,
        align: 'right',
        render: (_, row) => formatYuan(row.balanceFen),
      },
      {
        title: t('iccard.card.chip'),
        dataIndex: 'chip',
        width: 90,
        search: false,
        render: (_, row) => t(`iccard.chip.${row.chip}`),
      },
      {
        title: t('iccard.card.cardType'),
        dataIndex: 'cardType',
        width: 100,
        search: false,
        render: (_, row) => t(`iccard.cardType.${row.cardType}`, { defaultValue: '-' }),
      },
      dateTimeColumn<IcCardView>(t('iccard.card.issuedAt'), 'issuedAt'),
      dateTimeColumn<IcCardView>(t('iccard.card.updatedAt'), 'updatedAt'),
    ],
    [t],
  );

  const rowActions: RowAction<IcCardView>[] = ROW_ACTIONS.map((button) => ({
    key: button,
    label: button === 'make' ? t('iccard.make') : t(`iccard.action.${button}`),
    permission: P.cardOperate,
    testId: (row) => `card-${button}-${row.cardNo}`,
    // Only what the card's status allows is offered: a row shows its few actions, not eleven greyed ones.
    visible: (row) => actionEnabled(actionOf(button, row), row),
    onClick: (row) => setOperation({ action: actionOf(button, row), card: row }),
  }));

  const followUp = (next: FollowUp) => setOperation(next);

  return (
    <>
      <GridPage<IcCardView>
        grid={grid}
        testId={testId}
        title={title}
        texts="iccard"
        sequence
        columns={columns}
        scrollX={1500}
        actionsWidth={380}
        toolbarExtra={[<ReaderIndicator key="reader" />]}
        search={{
          queryTestId: `${testId}-query`,
          buttons: [
            {
              key: 'add',
              label: t('iccard.card.register'),
              permission: P.cardAdd,
              testId: `${testId}-register`,
              onClick: () => setRegistering(true),
            },
            icCardExportButton('card', P.cardQuery, `${testId}-export`),
          ],
        }}
        rowActions={rowActions}
      />
      {registering && <CardFormModal chip={chip} cardType={cardType} onClose={() => setRegistering(false)} />}
      {operation && (
        <CardActionModal
          key={`${operation.action}:${operation.card.cardNo}`}
          action={operation.action}
          card={operation.card}
          certificateNumber={operation.certificateNumber}
          onClose={() => setOperation(undefined)}
          onFollowUp={followUp}
        />
      )}
    </>
  );
}
