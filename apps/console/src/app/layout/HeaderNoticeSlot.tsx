import { BellOutlined } from '@ant-design/icons';
import type { InboxMessageDto } from '@voltdepot/shared-contracts';
import { App, Badge, Button, Popover, Spin } from 'antd';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyNamed, MountWhenOpened } from '../lazy/lazyNamed';
import { useNoticeCenter } from '../notice/NoticeProvider';

// The popover's list and the inbox's table load when first opened, not with the header.
const InboxDialog = lazyNamed('inbox', () => import('../notice/InboxDialog'), 'InboxDialog');
const NoticePopoverContent = lazyNamed(
  'notice-popover',
  () => import('./NoticePopoverContent'),
  'NoticePopoverContent',
);

/** Spec §9: the notice popover is 356 px wide (NoticePopoverContent's width). */
const NOTICE_POPOVER_WIDTH = 356;

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
    <Suspense fallback={<Spin style={{ display: 'block', width: NOTICE_POPOVER_WIDTH }} />}>
      <NoticePopoverContent
        unread={unread}
        onOpenNotice={openNotice}
        onViewMore={() => {
          setPopoverOpen(false);
          setInboxOpen(true);
        }}
      />
    </Suspense>
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
      <MountWhenOpened open={inboxOpen}>
        <InboxDialog open={inboxOpen} onClose={() => setInboxOpen(false)} />
      </MountWhenOpened>
    </span>
  );
}
