import type { ProColumns } from '@ant-design/pro-components';
import type { IcAccountView } from '@voltdepot/console-api-client';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { GridPage } from '../../../app/grid/GridPage';
import { formatYuan } from '../../../app/format/money';
import { icCardApi } from '../api/icCardApi';
import { TransferModal, type TransferDirection } from '../components/TransferModal';
import { icCardExportButton, useIcCardGrid } from '../hooks/useIcCardGrid';
import { useIcCardOptions } from '../hooks/useIcCardOptions';
import { useText } from '../hooks/useText';
import { ICCARD_PERMISSIONS as P } from '../permissions';
import { groupInfoPath } from './CustomersPage';

const FIXED = { kind: 'group' };

/** Group accounts (/iccard/groupAccount): each group's balance, consumption and users; allocate and reclaim. */
export function GroupAccountsPage() {
  const { t } = useText();
  const companies = useIcCardOptions('companies');
  const [transfer, setTransfer] = useState<{ row: IcAccountView; direction: TransferDirection }>();
  const grid = useIcCardGrid<IcAccountView>('accounts', icCardApi.accounts, {
    filters: ['name', 'companyId'],
    fixed: FIXED,
  });
  const columns = useMemo<ProColumns<IcAccountView>[]>(
    () => [
      {
        title: t('iccard.group.name'),
        dataIndex: 'name',
        width: 180,
        render: (_, row) => <Link to={groupInfoPath(row.customerId)}>{row.name}</Link>,
      },
      {
        title: t('iccard.group.company'),
        dataIndex: 'companyId',
        width: 180,
        valueType: 'select',
        fieldProps: { options: companies, showSearch: true },
        render: (_, row) => row.companyName ?? '-',
      },
      {
        title: t('iccard.group.balance'),
        dataIndex: 'balanceFen',
        width: 130,
        search: false,
        align: 'right',
        render: (_, row) => formatYuan(row.balanceFen),
      },
      {
        title: t('iccard.customer.arrears'),
        dataIndex: 'arrearsFen',
        width: 120,
        search: false,
        align: 'right',
        render: (_, row) => formatYuan(row.arrearsFen),
      },
      {
        title: t('iccard.group.consumed'),
        dataIndex: 'consumedFen',
        width: 160,
        search: false,
        align: 'right',
        render: (_, row) => formatYuan(row.consumedFen),
      },
      {
        title: t('iccard.group.members'),
        dataIndex: 'userCount',
        width: 90,
        search: false,
        render: (_, row) => row.userCount ?? 0,
      },
      {
        title: t('iccard.group.contacts'),
        dataIndex: 'contacts',
        width: 130,
        search: false,
        render: (_, row) => row.contacts ?? '-',
      },
      {
        title: t('iccard.company.contactInformation'),
        dataIndex: 'contactInformation',
        width: 160,
        search: false,
        render: (_, row) => row.contactInformation ?? '-',
      },
    ],
    [t, companies],
  );
  return (
    <>
      <GridPage<IcAccountView>
        grid={grid}
        testId="group-accounts"
        title={t('iccard.group.title')}
        texts="iccard"
        rowKey="accountId"
        sequence
        columns={columns}
        scrollX={1400}
        search={{
          queryTestId: 'group-query',
          buttons: [icCardExportButton('account', P.customerQuery, 'group-export')],
        }}
        rowActions={(['allocate', 'reclaim'] as const).map((direction) => ({
          key: direction,
          label: t(`iccard.group.${direction}`),
          permission: P.groupAllocate,
          testId: (row: IcAccountView) => `group-${direction}-${row.customerId}`,
          onClick: (row: IcAccountView) => setTransfer({ row, direction }),
        }))}
      />
      {transfer && (
        <TransferModal
          groupId={transfer.row.customerId}
          groupName={transfer.row.name}
          direction={transfer.direction}
          onClose={() => setTransfer(undefined)}
        />
      )}
    </>
  );
}
