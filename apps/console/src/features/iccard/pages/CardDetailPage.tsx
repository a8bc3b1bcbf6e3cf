import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { IcCardActionView, IcLedgerRecordView } from '@voltdepot/console-api-client';
import { Button, Card, Descriptions, Result, Skeleton, Space, Tag } from 'antd';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { formatYuan } from '../../../app/format/money';
import { GridPage } from '../../../app/grid/GridPage';
import { useRowsGrid } from '../../../app/grid/useGrid';
import { icCardApi } from '../api/icCardApi';
import { useActionColumns } from '../components/ActionRecordsGrid';
import { icCardExportButton } from '../hooks/useIcCardGrid';
import { ICCARD_PERMISSIONS as P } from '../permissions';
import { STATUS_COLORS } from '../components/CardGrid';
import { isCertificateType } from '../components/certificateTypes';
import { useRecordColumns } from '../components/recordColumns';
import { useText } from '../hooks/useText';
import { icCardQueryKeys } from '../queryKeys';
import { groupInfoPath } from './CustomersPage';

const noSearch = <T,>(columns: T[]) => columns.map((column) => ({ ...column, search: false as const }));

/**
 * An IC card's detail (/report/components/icCard?cardNo=): the card, its holder, the account behind it,
 * the account's last records and the card's last actions.
 */
export function CardDetailPage() {
  const { t } = useText();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const cardNo = params.get('cardNo')?.trim() || undefined;
  const query = useQuery({
    queryKey: icCardQueryKeys.card(cardNo ?? ''),
    queryFn: ({ signal }) => icCardApi.cardDetail(cardNo!, signal),
    enabled: cardNo !== undefined,
  });
  const records = useRowsGrid<IcLedgerRecordView>(icCardQueryKeys.card(cardNo ?? ''), {
    data: query.data?.records,
    isFetching: query.isFetching,
  });
  const actions = useRowsGrid<IcCardActionView>(icCardQueryKeys.card(cardNo ?? ''), {
    data: query.data?.actions,
    isFetching: query.isFetching,
  });
  const recordColumns = noSearch(useRecordColumns());
  const actionColumns = useActionColumns(false);

  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/iccard/cardManage')}>
      {t('iccard.card.title')}
    </Button>
  );
  if (cardNo === undefined) return <Result status="info" title={t('iccard.detail.noCard')} extra={back} />;
  if (query.isPending) return <Skeleton active />;
  const detail = query.data;
  if (!detail) return <Result status="404" title={t('iccard.detail.notFound')} extra={back} />;
  const { card, customer, account } = detail;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="card-detail">
      <Card title={`${t('iccard.detail.title')}: ${card.cardNo}`} extra={back}>
        <Descriptions column={3} size="small" title={t('iccard.detail.card')}>
          <Descriptions.Item label={t('iccard.card.cardNo')}>{card.cardNo}</Descriptions.Item>
          <Descriptions.Item label={t('iccard.card.chip')}>{t(`iccard.chip.${card.chip}`)}</Descriptions.Item>
          <Descriptions.Item label={t('iccard.card.cardType')}>
            {t(`iccard.cardType.${card.cardType}`, { defaultValue: '-' })}
          </Descriptions.Item>
          <Descriptions.Item label={t('iccard.card.status')}>
            <Tag color={STATUS_COLORS[card.status]}>{t(`iccard.status.${card.status}`)}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('iccard.card.balance')}>
            {formatYuan(card.balanceFen)}
          </Descriptions.Item>
          <Descriptions.Item label={t('iccard.card.issuedAt')}>
            {formatDateTime(card.issuedAt) || '-'}
          </Descriptions.Item>
        </Descriptions>
        <Descriptions column={3} size="small" title={t('iccard.card.customer')}>
          <Descriptions.Item label={t('iccard.customer.userName')}>{customer.userName}</Descriptions.Item>
          <Descriptions.Item label={t('iccard.customer.clientType')}>
            {t(`iccard.clientType.${customer.clientType}`, { defaultValue: '-' })}
          </Descriptions.Item>
          <Descriptions.Item label={t('iccard.customer.group')}>
            {customer.groupId === null ? (
              '-'
            ) : (
              <Button type="link" size="small" onClick={() => navigate(groupInfoPath(customer.groupId!))}>
                {t('iccard.group.info')}
              </Button>
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('iccard.customer.certificateType')}>
            {isCertificateType(customer.certificateType)
              ? t(`iccard.certificate.${customer.certificateType}`)
              : customer.certificateType}
          </Descriptions.Item>
          <Descriptions.Item label={t('iccard.customer.certificateNumber')}>
            {customer.certificateNumber}
          </Descriptions.Item>
          <Descriptions.Item label={t('iccard.customer.phone')}>{customer.phone ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('iccard.customer.company')}>
            {customer.companyName ?? '-'}
          </Descriptions.Item>
          <Descriptions.Item label={t('iccard.customer.gender')}>
            {customer.gender === null ? '-' : t(`iccard.gender.${customer.gender}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('iccard.customer.nation')}>{customer.nation ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('iccard.customer.address')}>
            {customer.address ?? '-'}
          </Descriptions.Item>
          <Descriptions.Item label={t('iccard.customer.identityVerified')}>
            {t(`iccard.verified.${customer.identityVerified}`)}
          </Descriptions.Item>
        </Descriptions>
        <Descriptions column={3} size="small" title={t('iccard.detail.account')}>
          <Descriptions.Item label={t('iccard.detail.account')}>
            {t(`iccard.accountKind.${account.kind}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('iccard.customer.balance')}>
            {formatYuan(account.balanceFen)}
          </Descriptions.Item>
          <Descriptions.Item label={t('iccard.customer.arrears')}>
            {formatYuan(account.arrearsFen)}
          </Descriptions.Item>
          <Descriptions.Item label={t('iccard.group.consumed')}>
            {formatYuan(account.consumedFen)}
          </Descriptions.Item>
          <Descriptions.Item label={t('iccard.detail.recharged')}>
            {formatYuan(account.rechargedFen)}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <GridPage<IcLedgerRecordView>
        grid={records}
        testId="card-detail-records"
        title={t('iccard.detail.records')}
        texts="iccard"
        toolbar={[
          {
            ...icCardExportButton('record', P.recordQuery, 'card-detail-records-export'),
            onClick: ({ locale }) => icCardApi.export('record', { accountId: account.accountId }, locale),
          },
        ]}
        rowKey="transactionId"
        columns={recordColumns}
        scrollX={1500}
      />
      <GridPage<IcCardActionView>
        grid={actions}
        testId="card-detail-actions"
        title={t('iccard.detail.actions')}
        texts="iccard"
        toolbar={[
          {
            ...icCardExportButton('action', P.recordQuery, 'card-detail-actions-export'),
            onClick: ({ locale }) => icCardApi.export('action', { cardNo: card.cardNo }, locale),
          },
        ]}
        columns={actionColumns}
        scrollX={1500}
      />
    </Space>
  );
}
