/**
 * The notification bell's place in the header (spec §2 "Header and main layout"), rendered only when the
 * notice-icon platform setting is on. Empty for now: the message-centre work fills it with the bell
 * (badge of the unread count, a 356 px popover with one tab 'in-app message', 'view more' opening the
 * inbox dialog).
 */
export function HeaderNoticeSlot() {
  return <span data-testid="header-notice-slot" style={{ display: 'inline-flex', alignItems: 'center' }} />;
}
