import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InboxMessageDto } from '@voltdepot/shared-contracts';
import { App, Button, DatePicker, Modal, Space, Table, Tag, type TableColumnsType } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATE_TIME_FORMAT } from '../format/formatDateTime';
import { INBOX_PAGE_SIZE, inboxQueryKeys, type InboxRange } from './inboxApi';
import { useNoticeCenter } from './NoticeProvider';

/** Spec §9: today 00:00:00 to 23:59:59. */
export function todayRange(now: Dayjs = dayjs()): [Dayjs, Dayjs] {
  return [now.startOf('day'), now.endOf('day')];
}

function toRange([start, end]: [Dayjs, Dayjs]): InboxRange {
  return { start: start.format(DATE_TIME_FORMAT), end: end.format(DATE_TIME_FORMAT) };
}

export type InboxDialogProps = { open: boolean; onClose: () => void };

/** The inbox dialog (spec §2): 70 % wide, date-time range, checkbox grid, mark read / delete. */
export function InboxDialog({ open, onClose }: InboxDialogProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { api, forget } = useNoticeCenter();
  const queryClient = useQueryClient();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => todayRange());
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<number[]>([]);
  const filter = useMemo(() => toRange(range), [range]);

  const data = useQuery({
    queryKey: inboxQueryKeys.page(page, INBOX_PAGE_SIZE, filter),
    queryFn: ({ signal }) => api.page(page, INBOX_PAGE_SIZE, filter, signal),
    placeholderData: keepPreviousData,
    enabled: open,
  });

  const reload = () => queryClient.invalidateQueries({ queryKey: inboxQueryKeys.all });

  const markRead = async () => {
    if (selected.length === 0) {
      void message.warning(t('notice.tickOneRow'));
      return;
    }
    await api.markRead(selected);
    forget(selected);
    setSelected([]);
    void message.success(t('notice.operationSuccessful'));
    await reload();
  };

  const markAllRead = async () => {
    await api.markAllRead();
    forget('all');
    void message.success(t('notice.operationSuccessful'));
    await reload();
  };

  const remove = () => {
    const ids = selected;
    modal.confirm({
      title: t('notice.prompt'),
      content: t('notice.confirmDelete'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        if (await api.remove(ids)) {
          forget(ids);
          setSelected([]);
          void message.success(t('notice.deletedSuccessfully'));
          await reload();
        } else {
          void message.info(t('notice.deletionFailed'));
        }
      },
    });
  };

  const columns: TableColumnsType<InboxMessageDto> = [
    { title: t('notice.content'), dataIndex: 'content', key: 'content', ellipsis: true },
    {
      title: t('notice.readFlag'),
      dataIndex: 'isRead',
      key: 'isRead',
      width: 100,
      render: (isRead: boolean) =>
        isRead ? (
          <Tag color="success">{t('notice.read')}</Tag>
        ) : (
          <Tag color="error">{t('notice.unread')}</Tag>
        ),
    },
    { title: t('notice.sendTime'), dataIndex: 'sendTime', key: 'sendTime', width: 180 },
    { title: t('notice.sender'), dataIndex: 'sender', key: 'sender', width: 140 },
    { title: t('notice.title'), dataIndex: 'title', key: 'title', ellipsis: true },
  ];

  return (
    <Modal open={open} onCancel={onClose} footer={null} width="70%" title={t('notice.inbox')} destroyOnHidden>
      <Space style={{ marginBottom: 16 }} wrap>
        <DatePicker.RangePicker
          showTime
          format={DATE_TIME_FORMAT}
          value={range}
          allowClear={false}
          onChange={(value) => {
            if (value?.[0] && value[1]) {
              setRange([value[0], value[1]]);
              setPage(1);
              setSelected([]);
            }
          }}
        />
        {selected.length > 0 ? (
          <Button type="primary" onClick={() => void markRead()}>
            {t('notice.markRead')}
          </Button>
        ) : (
          <Button type="primary" onClick={() => void markAllRead()}>
            {t('notice.markAllRead')}
          </Button>
        )}
        <Button danger disabled={selected.length === 0} onClick={remove}>
          {t('notice.delete')}
        </Button>
      </Space>
      <Table<InboxMessageDto>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={data.data?.list ?? []}
        loading={data.isFetching}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
        pagination={{
          current: page,
          pageSize: INBOX_PAGE_SIZE,
          total: data.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t('common.total', { total }),
          onChange: (next) => {
            setPage(next);
            setSelected([]);
          },
        }}
      />
    </Modal>
  );
}
