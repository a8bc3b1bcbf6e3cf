import { ArrowLeftOutlined } from '@ant-design/icons';
import type { ProColumns } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import type { IcGroupMemberView } from '@voltdepot/console-api-client';
import { Button, Card, Descriptions, Result, Skeleton, Space, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { formatYuan } from '../../../app/format/money';
import { GridPage } from '../../../app/grid/GridPage';
import { useRowsGrid } from '../../../app/grid/useGrid';
import { icCardApi } from '../api/icCardApi';
import { cardDetailPath, STATUS_COLORS } from '../components/CardGrid';
import { TransferModal, type TransferDirection } from '../components/TransferModal';
import { useText } from '../hooks/useText';
import { icCardExportButton } from '../hooks/useIcCardGrid';
import { ICCARD_PERMISSIONS as P } from '../permissions';
import { icCardQueryKeys } from '../queryKeys';

const idOf = (text: string | null) => (text && /^\d{1,10}$/.test(text) ? Number(text) : undefined);

/**
 * A group's basic information (/iccard/group_basic_info?id=<group customer id>): the group, its account,
 * and its users with their balances and cards; a user's balance allocated or reclaimed from here.
 */
export function GroupInfoPage() {
  const { t } = useText();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = idOf(params.get('id'));
  const [transfer, setTransfer] = useState<{ member: IcGroupMemberView; direction: TransferDirection }>();
  const query = useQuery({
    queryKey: icCardQueryKeys.group(id ?? 0),
    queryFn: ({ signal }) => icCardApi.group(id!, signal),
    enabled: id !== undefined,
  });
  const grid = useRowsGrid<IcGroupMemberView>(icCardQueryKeys.group(id ?? 0), {
    data: query.data?.members,
    isFetching: query.isFetching,
  });
  const columns = useMemo<ProColumns<IcGroupMemberView>[]>(
    () => [
      { title: t('iccard.customer.userName'), dataIndex: 'userName', width: 140 },
      { title: t('iccard.customer.phone'), dataIndex: 'phone', width: 130, render: (_, m) => m.phone ?? '-' },
      {
        title: t('iccard.customer.balance'),
        dataIndex: 'balanceFen',
        width: 130,
        align: 'right',
        render: (_, m) => formatYuan(m.balanceFen),
      },
      {
        title: t('iccard.customer.arrears'),
        dataIndex: 'arrearsFen',
        width: 120,
        align: 'right',
        render: (_, m) => formatYuan(m.arrearsFen),
      },
      {
        title: t('iccard.group.consumed'),
        dataIndex: 'consumedFen',
        width: 150,
        align: 'right',
        render: (_, m) => formatYuan(m.consumedFen),
      },
      {
        title: t('iccard.group.cards'),
        dataIndex: 'cards',
        width: 320,
        render: (_, m) =>
          m.cards.length === 0 ? (
            '-'
          ) : (
            <Space size={4} wrap>
              {m.cards.map((card) => (
                <Tag key={card.cardNo} color={STATUS_COLORS[card.status]}>
                  <Link to={cardDetailPath(card.cardNo)}>{card.cardNo}</Link>{' '}
                  {t(`iccard.status.${card.status}`)}
                </Tag>
              ))}
            </Space>
          ),
      },
    ],
    [t],
  );

  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/iccard/groupAccount')}>
      {t('iccard.group.title')}
    </Button>
  );
  if (id === undefined) return <Result status="info" title={t('iccard.group.noGroup')} extra={back} />;
  if (query.isPending) return <Skeleton active />;
  const info = query.data;
  if (!info) return <Result status="404" title={t('iccard.group.notFound')} extra={back} />;
  const { group, account } = info;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="group-info">
      <Card title={t('iccard.group.infoTitle')} extra={back}>
        <Descriptions column={3} size="small">
          <Descriptions.Item label={t('iccard.group.name')}>{group.userName}</Descriptions.Item>
          <Descriptions.Item label={t('iccard.group.company')}>{group.companyName ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('iccard.customer.phone')}>{group.phone ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('iccard.customer.certificateNumber')}>
            {group.certificateNumber}
          </Descriptions.Item>
          <Descriptions.Item label={t('iccard.group.balance')}>
            {formatYuan(account.balanceFen)}
          </Descriptions.Item>
          <Descriptions.Item label={t('iccard.customer.arrears')}>
            {formatYuan(account.arrearsFen)}
          </Descriptions.Item>
          <Descriptions.Item label={t('iccard.group.consumed')}>
            {formatYuan(account.consumedFen)}
          </Descriptions.Item>
          <Descriptions.Item label={t('iccard.group.members')}>{info.members.length}</Descriptions.Item>
          <Descriptions.Item label={t('iccard.group.contacts')}>{account.contacts ?? '-'}</Descriptions.Item>
        </Descriptions>
      </Card>
      <GridPage<IcGroupMemberView>
        grid={grid}
        testId="group-members"
        title={t('iccard.group.subUsers')}
        texts="iccard"
        toolbar={[
          {
            ...icCardExportButton('customer', P.customerQuery, 'group-members-export'),
            onClick: ({ locale }) => icCardApi.export('customer', { groupId: group.id }, locale),
          },
        ]}
        rowKey="customerId"
        columns={columns}
        rowActions={(['allocate', 'reclaim'] as const).map((direction) => ({
          key: direction,
          label: t(`iccard.group.${direction}`),
          permission: P.groupAllocate,
          testId: (m: IcGroupMemberView) => `member-${direction}-${m.customerId}`,
          onClick: (m: IcGroupMemberView) => setTransfer({ member: m, direction }),
        }))}
      />
      {transfer && (
        <TransferModal
          groupId={group.id}
          groupName={group.userName}
          direction={transfer.direction}
          memberId={transfer.member.customerId}
          onClose={() => setTransfer(undefined)}
        />
      )}
    </Space>
  );
}
