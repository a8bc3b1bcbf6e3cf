import { BellOutlined } from '@ant-design/icons';
import type { InboxMessageDto } from '@voltdepot/shared-contracts';
import { App, Badge, Button, Empty, List, Popover, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { InboxDialog } from '../notice/InboxDialog';
import { useNoticeCenter } from '../notice/NoticeProvider';

/** Spec §9: the notice popover is 356 px wide. */
export const NOTICE_POPOVER_WIDTH = 356;

/**
 * The notification bell (spec §2 "Header and main layout"), rendered only when the notice-icon platform
 * setting is on: badge of the unread count, a 356 px popover with one tab 'in-app message', 'view more'
 * opening the inbox dialog; a notice opens an alert with content, sender and time and is marked read.
 */
export function HeaderNoticeSlot() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const { unread, api, forget } = useNoticeCenter();
  const [popoverOpen, setPopoverOpen] = useState(false);
  const [inboxOpen, setInboxOpen] = useState(false);

  const openNotice = (item: InboxMessageDto) => {
    setPopoverOpen(false);
    modal.info({
      title: item.title,
      okText: t('common.ok'),
      content: (
        <div data-testid="notice-alert">
          <p style={{ whiteSpace: 'pre-wrap' }}>{item.content}</p>
          <p>
            {t('notice.sender')}: {item.sender}
          </p>
          <p>
            {t('notice.time')}: {item.sendTime}
          </p>
        </div>
      ),
    });
    forget([item.id]);
    void api.markRead([item.id]).catch(() => undefined);
  };

  const list = (
    <div style={{ width: NOTICE_POPOVER_WIDTH }} data-testid="notice-popover">
      <Tabs
        centered
        items={[
          {
            key: 'inbox',
            label: t('notice.inAppMessage'),
            children:
              unread.length === 0 ? (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notice.noData')} />
              ) : (
                <List<InboxMessageDto>
                  size="small"
                  style={{ maxHeight: 320, overflowY: 'auto' }}
                  dataSource={unread}
                  renderItem={(item) => (
                    <List.Item
                      key={item.id}
                      style={{ cursor: 'pointer' }}
                      data-testid="notice-item"
                      onClick={() => openNotice(item)}
                    >
                      <List.Item.Meta title={item.title} description={item.sendTime} />
                    </List.Item>
                  )}
                />
              ),
          },
        ]}
      />
      <Button
        type="link"
        block
        onClick={() => {
          setPopoverOpen(false);
          setInboxOpen(true);
        }}
      >
        {t('notice.viewMore')}
      </Button>
    </div>
  );

  return (
    <span data-testid="header-notice-slot" style={{ display: 'inline-flex', alignItems: 'center' }}>
      <Popover
        trigger="click"
        placement="bottomRight"
        open={popoverOpen}
        onOpenChange={setPopoverOpen}
        content={list}
        arrow={false}
      >
        <Button type="text" aria-label={t('notice.bell')}>
          <Badge count={unread.length} size="small" data-testid="notice-badge">
            <BellOutlined style={{ fontSize: 16 }} />
          </Badge>
        </Button>
      </Popover>
      <InboxDialog open={inboxOpen} onClose={() => setInboxOpen(false)} />
    </span>
  );
}
