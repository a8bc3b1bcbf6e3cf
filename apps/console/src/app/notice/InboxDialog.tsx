import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import { GuardedButton } from '@voltdepot/console-ui';
import { App, DatePicker, Modal, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATE_TIME_FORMAT } from '../format/formatDateTime';
import { useGridRequest } from '../grid/useGridRequest';
import { INBOX_PAGE_SIZE, inboxQueryKeys, type InboxMessage, type InboxRange } from './inboxApi';
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
  const [selected, setSelected] = useState<number[]>([]);
  const filter = useMemo(() => toRange(range), [range]);
  const actionRef = useRef<ActionType>();

  const request = useGridRequest<InboxMessage>({
    queryKey: (page, size) => inboxQueryKeys.page(page, size, filter),
    fetch: (page, size, _filters, signal) => api.page(page, size, filter, signal),
  });

  const reload = async () => {
    await queryClient.invalidateQueries({ queryKey: inboxQueryKeys.all });
    await actionRef.current?.reload();
  };

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

  const columns: ProColumns<InboxMessage>[] = [
    { title: t('notice.content'), dataIndex: 'content', key: 'content', ellipsis: true },
    {
      title: t('notice.readFlag'),
      dataIndex: 'isRead',
      key: 'isRead',
      width: 100,
      render: (_dom, { isRead }) =>
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
      <ProTable<InboxMessage>
        rowKey="id"
        size="small"
        actionRef={actionRef}
        columns={columns}
        // The range is the table's params: a new range asks page 1 again.
        params={filter}
        request={request}
        search={false}
        options={false}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
        tableAlertRender={false}
        headerTitle={
          <DatePicker.RangePicker
            showTime
            format={DATE_TIME_FORMAT}
            value={range}
            allowClear={false}
            onChange={(value) => {
              if (value?.[0] && value[1]) {
                setRange([value[0], value[1]]);
                setSelected([]);
                void actionRef.current?.setPageInfo?.({ current: 1 });
              }
            }}
          />
        }
        toolBarRender={() => [
          // One button whose label and action follow the selection: swapping two buttons would unmount
          // the focused one after "mark read", and focus leaving the dialog stops Escape closing it.
          <GuardedButton
            key="read"
            type="primary"
            data-testid={selected.length > 0 ? 'inbox-mark-read' : 'inbox-mark-all-read'}
            onClick={selected.length > 0 ? markRead : markAllRead}
          >
            {selected.length > 0 ? t('notice.markRead') : t('notice.markAllRead')}
          </GuardedButton>,
          <GuardedButton
            key="delete"
            danger
            data-testid="inbox-delete"
            disabled={selected.length === 0}
            onClick={remove}
          >
            {t('notice.delete')}
          </GuardedButton>,
        ]}
        pagination={{
          pageSize: INBOX_PAGE_SIZE,
          showSizeChanger: false,
          showTotal: (total) => t('common.total', { total }),
          onChange: () => setSelected([]),
        }}
      />
    </Modal>
  );
}
