import type { ProColumns } from '@ant-design/pro-components';
import { SendStatuses, type SendLogDto, type SendStatus } from '@voltdepot/shared-contracts';
import { Descriptions, Tag, Tooltip, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { GridPage } from '../../../app/grid/GridPage';
import { msgApi } from '../api/msgApi';
import { useDictionaries, type MsgDictCode } from '../hooks/useDictionaries';
import { htmlText } from './htmlText';
import { msgGridProps, useMsgGrid } from './msgGrid';
import { timeColumnTitle } from '../../../app/grid/columns';

const DICTS: MsgDictCode[] = ['event_channel'];

const STATUS_COLORS: Record<SendStatus, string> = {
  PENDING: 'default',
  RETRYING: 'warning',
  SUCCESS: 'success',
  FAILED: 'error',
};

/** The send log: one row per event x receiver x channel, its status and the provider's error. */
export function SendLogTable() {
  const { t } = useTranslation();
  const dict = useDictionaries(DICTS);
  const grid = useMsgGrid<SendLogDto>('sendLog', msgApi.sendLogs.page);

  const columns = useMemo<ProColumns<SendLogDto>[]>(
    () => [
      {
        title: timeColumnTitle(t('messages.sendLog.createTime')),
        dataIndex: 'createTime',
        search: false,
        width: 170,
      },
      {
        title: t('messages.sendLog.eventKey'),
        dataIndex: 'eventKey',
        width: 200,
        ellipsis: true,
        copyable: true,
      },
      {
        title: t('messages.sendLog.ruleKind'),
        dataIndex: 'ruleKind',
        search: false,
        width: 100,
        render: (_dom, row) => `${row.ruleKind}${row.ruleId ? ` #${row.ruleId}` : ''}`,
      },
      {
        title: t('messages.sendLog.channel'),
        dataIndex: 'channel',
        valueType: 'select',
        width: 110,
        fieldProps: { options: dict.options.event_channel },
        render: (_dom, row) => dict.label('event_channel', row.channel),
      },
      { title: t('messages.sendLog.receiver'), dataIndex: 'receiver', width: 180, ellipsis: true },
      {
        title: t('messages.sendLog.messageTitle'),
        dataIndex: 'title',
        search: false,
        width: 180,
        ellipsis: true,
      },
      {
        title: t('messages.common.status'),
        dataIndex: 'status',
        valueType: 'select',
        width: 110,
        fieldProps: {
          options: SendStatuses.map((status) => ({
            value: status,
            label: t(`messages.sendLog.statuses.${status}`),
          })),
        },
        render: (_dom, row) => (
          <Tag color={STATUS_COLORS[row.status]} data-testid="send-status">
            {t(`messages.sendLog.statuses.${row.status}`)}
          </Tag>
        ),
      },
      { title: t('messages.sendLog.attempts'), dataIndex: 'attempts', search: false, width: 90 },
      {
        title: t('messages.sendLog.error'),
        dataIndex: 'error',
        search: false,
        width: 260,
        render: (_dom, row) =>
          row.error ? (
            <Tooltip title={row.error}>
              <Typography.Text type="danger" ellipsis style={{ maxWidth: 240 }} data-testid="send-error">
                {row.error}
              </Typography.Text>
            </Tooltip>
          ) : (
            '-'
          ),
      },
      {
        title: timeColumnTitle(t('messages.sendLog.sentTime')),
        dataIndex: 'sentTime',
        search: false,
        width: 170,
      },
    ],
    [t, dict],
  );

  return (
    <GridPage<SendLogDto>
      grid={grid}
      {...msgGridProps()}
      columns={columns}
      scrollX={1700}
      testId="msg-send-log"
      table={{
        expandable: {
          expandedRowRender: (row) => (
            <Descriptions size="small" column={1} bordered>
              <Descriptions.Item label={t('messages.sendLog.jobId')}>{row.jobId}</Descriptions.Item>
              <Descriptions.Item label={t('messages.sendLog.content')}>
                {htmlText(row.content) || '-'}
              </Descriptions.Item>
              <Descriptions.Item label={t('messages.sendLog.error')}>
                <Typography.Text type={row.error ? 'danger' : undefined} style={{ whiteSpace: 'pre-wrap' }}>
                  {row.error ?? '-'}
                </Typography.Text>
              </Descriptions.Item>
            </Descriptions>
          ),
        },
      }}
    />
  );
}
