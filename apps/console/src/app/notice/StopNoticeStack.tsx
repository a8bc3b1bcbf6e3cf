import { CloseOutlined, ExclamationCircleFilled, InfoCircleFilled } from '@ant-design/icons';
import type { StopNotice } from '@voltdepot/shared-contracts';
import { Button, Space, theme, Typography } from 'antd';
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useDialogOpen } from './openDialog';
import { formatYuan } from '../format/money';
import { noticeBody, stopNoticeTitleKey } from './stopNotice';
import { splitQueue, type QueuedNotice } from './stopNoticeQueue';

/** ProLayout's header height (token heightLayoutHeader): the stack never grows up into it. */
const HEADER_HEIGHT = 56;
const MARGIN = 24;
/** As wide as antd's notifications. */
const WIDTH = 384;

export type StopNoticeStackProps = {
  queue: readonly QueuedNotice[];
  onDismiss: (id: string) => void;
  onDismissAll: () => void;
};

/**
 * The realtime stop notices (spec §2): at most three on screen, the rest behind one summary entry that
 * can be expanded to see (and dismiss) them.
 *
 * Placement: bottom right, so the header's bell and user menu (top right) are never covered, and below
 * antd's popup layer (z-index 1000) so the bell's popover, the user menu's dropdown and any dialog's mask
 * draw over the notices, never the other way round. Position alone cannot keep clear of a tall modal or
 * a drawer, so while an antd Modal or Drawer is open the stack is not rendered at all; it comes back,
 * unchanged, when the dialog closes.
 */
export function StopNoticeStack(props: StopNoticeStackProps) {
  // Nothing held: nothing rendered, and no DOM watching.
  return props.queue.length === 0 ? null : <HeldStopNotices {...props} />;
}

function HeldStopNotices({ queue, onDismiss, onDismissAll }: StopNoticeStackProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const dialogOpen = useDialogOpen();
  const [expanded, setExpanded] = useState(false);
  if (dialogOpen) return null;

  const { shown, waiting } = splitQueue(queue);
  const card = {
    background: token.colorBgElevated,
    borderRadius: token.borderRadiusLG,
    boxShadow: token.boxShadow,
    padding: `${token.paddingSM}px ${token.padding}px`,
  };
  return createPortal(
    <section
      aria-label={t('notice.stopNotices')}
      aria-live="polite"
      data-testid="stop-notice-stack"
      style={{
        position: 'fixed',
        right: MARGIN,
        bottom: MARGIN,
        zIndex: token.zIndexPopupBase - 1,
        width: WIDTH,
        maxWidth: `calc(100vw - ${2 * MARGIN}px)`,
        maxHeight: `calc(100vh - ${HEADER_HEIGHT + 2 * MARGIN}px)`,
        overflowY: 'auto',
        display: 'flex',
        flexDirection: 'column',
        gap: token.marginXS,
      }}
    >
      {shown.map(({ id, notice }) => (
        <div key={id} data-testid="stop-notice" style={card}>
          <NoticeLines notice={notice} onDismiss={() => onDismiss(id)} />
        </div>
      ))}
      {waiting.length > 0 && (
        <div data-testid="stop-notice-summary" style={card}>
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <Typography.Text strong data-testid="stop-notice-more">
              {t('notice.moreStops', { count: waiting.length })}
            </Typography.Text>
            <Space size={0}>
              <Button
                type="link"
                size="small"
                onClick={() => setExpanded(!expanded)}
                aria-expanded={expanded}
              >
                {expanded ? t('notice.hideWaiting') : t('notice.showWaiting')}
              </Button>
              <Button type="link" size="small" onClick={onDismissAll}>
                {t('notice.dismissAll')}
              </Button>
            </Space>
          </Space>
          {expanded && (
            <div data-testid="stop-notice-waiting" style={{ maxHeight: 240, overflowY: 'auto' }}>
              {waiting.map(({ id, notice }) => (
                <div
                  key={id}
                  data-testid="stop-notice-waiting-item"
                  style={{
                    borderTop: `1px solid ${token.colorSplit}`,
                    paddingTop: token.paddingXS,
                    marginTop: token.marginXS,
                  }}
                >
                  <NoticeLines notice={notice} onDismiss={() => onDismiss(id)} />
                </div>
              ))}
            </div>
          )}
        </div>
      )}
    </section>,
    document.body,
  );
}

/** Title and text in the user's language, the order's amount once known, a close button. */
function NoticeLines({ notice, onDismiss }: { notice: StopNotice; onDismiss: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const normal = Number(notice.type) === 1;
  const Icon = normal ? InfoCircleFilled : ExclamationCircleFilled;
  const amount =
    notice.amountFen === undefined
      ? undefined
      : notice.orderHeld
        ? t('notice.orderHeld')
        : t('notice.orderAmount', { amount: formatYuan(notice.amountFen) });
  return (
    <div style={{ display: 'flex', gap: token.marginSM, alignItems: 'flex-start' }}>
      <Icon style={{ color: normal ? token.colorInfo : token.colorWarning, fontSize: 20, marginTop: 2 }} />
      <div style={{ flex: 1, minWidth: 0 }}>
        <Typography.Text strong data-testid="stop-notice-title">
          {t(stopNoticeTitleKey(notice))}
        </Typography.Text>
        <div style={{ overflowWrap: 'anywhere' }}>{noticeBody(t, notice)}</div>
        {amount && <div data-testid="stop-notice-amount">{amount}</div>}
      </div>
      <Button
        type="text"
        size="small"
        icon={<CloseOutlined />}
        aria-label={t('notice.dismiss')}
        data-testid="stop-notice-dismiss"
        onClick={onDismiss}
      />
    </div>
  );
}
