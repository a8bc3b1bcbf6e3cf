import type { ProColumns } from '@ant-design/pro-components';
import { App, DatePicker, Modal, Space, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { todayRange as businessTodayRange } from '../format/businessTime';
import { pickerRangeOf } from '../format/businessPicker';
import { DATE_TIME_FORMAT } from '../format/formatDateTime';
import { TimeZoneHint } from '../format/TimeZoneHint';
import { timeColumnTitle } from '../grid/columns';
import { GridPage, type GridButton } from '../grid/GridPage';
import { usePagedGrid, type PagedGrid } from '../grid/useGrid';
import { INBOX_PAGE_SIZE, inboxQueryKeys, type InboxMessage, type InboxRange } from './inboxApi';
import { useNoticeCenter } from './NoticeProvider';

/**
 * Spec §9: today 00:00:00 to 23:59:59 of the business time zone, as the picker holds it (business wall
 * clock, whatever the browser's zone).
 */
export function todayRange(now: number = Date.now()): [Dayjs, Dayjs] {
  return pickerRangeOf(businessTodayRange(now));
}

/** The message centre takes business wall-clock text, which is what the picker shows. */
export function toRange([start, end]: [Dayjs, Dayjs]): InboxRange {
  return { start: start.format(DATE_TIME_FORMAT), end: end.format(DATE_TIME_FORMAT) };
}

export type InboxDialogProps = { open: boolean; onClose: () => void };

/** The inbox dialog (spec §2): 70 % wide, date-time range, checkbox grid, mark read / delete. */
export function InboxDialog({ open, onClose }: InboxDialogProps) {
  const { t } = useTranslation();
  // The grid lives in the dialog's content, so a closed dialog reads nothing.
  return (
    <Modal open={open} onCancel={onClose} footer={null} width="70%" title={t('notice.inbox')} destroyOnHidden>
      <InboxGrid />
    </Modal>
  );
}

function InboxGrid() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { api, forget } = useNoticeCenter();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => todayRange());
  const [selected, setSelected] = useState<number[]>([]);
  const filter = useMemo(() => toRange(range), [range]);

  const pages = usePagedGrid<InboxMessage>({
    // Reloading after a change reads the inbox's every key again, as a pushed new message does.
    listKey: inboxQueryKeys.all,
    pageKey: (page, size) => inboxQueryKeys.page(page, size, filter),
    fetch: (page, size, _filters, signal) => api.page(page, size, filter, signal),
    pageSize: INBOX_PAGE_SIZE,
    searchForm: false,
  });
  // A selection belongs to the page it was made on.
  const grid: PagedGrid<InboxMessage> = {
    ...pages,
    changePage: (page, size) => {
      setSelected([]);
      pages.changePage(page, size);
    },
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
    await grid.reload();
  };

  const markAllRead = async () => {
    await api.markAllRead();
    forget('all');
    void message.success(t('notice.operationSuccessful'));
    await grid.reload();
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
          await grid.reload();
        } else {
          void message.info(t('notice.deletionFailed'));
        }
      },
    });
  };

  const ticked = selected.length > 0;
  const toolbar: GridButton[] = [
    // One button (one key) whose label and action follow the selection: swapping two buttons would unmount
    // the focused one after "mark read", and focus leaving the dialog stops Escape closing it.
    {
      key: 'read',
      primary: true,
      label: ticked ? t('notice.markRead') : t('notice.markAllRead'),
      testId: ticked ? 'inbox-mark-read' : 'inbox-mark-all-read',
      onClick: ticked ? markRead : markAllRead,
    },
    {
      key: 'delete',
      danger: true,
      disabled: !ticked,
      label: t('notice.delete'),
      testId: 'inbox-delete',
      onClick: remove,
    },
  ];

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
    { title: timeColumnTitle(t('notice.sendTime')), dataIndex: 'sendTime', key: 'sendTime', width: 180 },
    { title: t('notice.sender'), dataIndex: 'sender', key: 'sender', width: 140 },
    { title: t('notice.title'), dataIndex: 'title', key: 'title', ellipsis: true },
  ];

  return (
    <GridPage<InboxMessage>
      grid={grid}
      testId="inbox-grid"
      columns={columns}
      title={
        <Space size={8}>
          <DatePicker.RangePicker
            showTime
            format={DATE_TIME_FORMAT}
            value={range}
            allowClear={false}
            onChange={(value) => {
              if (value?.[0] && value[1]) {
                // A new range is a new list: its first page, nothing ticked.
                setRange([value[0], value[1]]);
                grid.changePage(1, grid.pageSize);
              }
            }}
          />
          <TimeZoneHint wording />
        </Space>
      }
      toolbar={toolbar}
      table={{
        size: 'small',
        rowSelection: { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) },
        tableAlertRender: false,
      }}
    />
  );
}
