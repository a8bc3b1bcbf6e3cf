import type { InboxMessageDto } from '@voltdepot/shared-contracts';
import { Button, Empty, List, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';

/** Spec §9: the notice popover is 356 px wide. */
export const NOTICE_POPOVER_WIDTH = 356;

/** The bell's popover: one tab 'in-app message' with the unread notices, and 'view more'. */
export function NoticePopoverContent({
  unread,
  onOpenNotice,
  onViewMore,
}: {
  unread: readonly InboxMessageDto[];
  onOpenNotice: (item: InboxMessageDto) => void;
  onViewMore: () => void;
}) {
  const { t } = useTranslation();
  return (
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
                  dataSource={[...unread]}
                  renderItem={(item) => (
                    <List.Item
                      key={item.id}
                      style={{ cursor: 'pointer' }}
                      data-testid="notice-item"
                      onClick={() => onOpenNotice(item)}
                    >
                      <List.Item.Meta title={item.title} description={item.sendTime} />
                    </List.Item>
                  )}
                />
              ),
          },
        ]}
      />
      <Button type="link" block onClick={onViewMore}>
        {t('notice.viewMore')}
      </Button>
    </div>
  );
}
