import type { StopNotice } from '@voltdepot/shared-contracts';
import type { TFunction } from 'i18next';
import { codeLabel } from '../../locales/codeLabel';
import { formatKwh } from '../format/money';

/** Type 1 is a normal stop; anything else an abnormal-stop alarm (spec §2 "Realtime stop notices"). */
export function stopNoticeTitleKey(notice: Pick<StopNotice, 'type'>) {
  return Number(notice.type) === 1
    ? ('notice.stoppedNormally' as const)
    : ('notice.stoppedAbnormally' as const);
}

/** What is read aloud (SpeechQueue, in Chinese): the message without dashes. */
export function speakableText(msg: string): string {
  return msg.replace(/[-－—–]/g, '');
}

/**
 * Spec §4: the stop-notice subscription starts when an access token existed on load, or after signing in
 * when the city code is tm166 or hefei.
 */
export function stopNoticesEnabled(hadTokenOnLoad: boolean, cityCode: string | null | undefined): boolean {
  return hadTokenOnLoad || cityCode === 'tm166' || cityCode === 'hefei';
}

/** What to do with a pushed notice: show it (a new one, or an update of the one with its key), or nothing. */
export type StopNoticeUpdate = { notice: StopNotice; speak: boolean };

/** Notices remembered per transaction; older keys are forgotten beyond this many. */
const REMEMBERED = 500;

/**
 * The stop notices of this session by transaction key. A stop is pushed once and its order's amount may
 * follow as a second push of the same notice, in either order: the board merges them, so the notice
 * shown keeps its amount whichever came last, is spoken only the first time, and is not reopened by its
 * amount once the user dismissed it. A notice without a key (an older server) is simply shown.
 */
export class StopNoticeBoard {
  private readonly notices = new Map<string, { notice: StopNotice; dismissed: boolean }>();

  receive(pushed: StopNotice): StopNoticeUpdate | undefined {
    const key = pushed.key;
    if (!key) return { notice: pushed, speak: true };
    const known = this.notices.get(key);
    if (known?.dismissed) return undefined;
    const notice: StopNotice =
      known && pushed.amountFen === undefined && known.notice.amountFen !== undefined
        ? { ...pushed, amountFen: known.notice.amountFen, orderHeld: known.notice.orderHeld }
        : pushed;
    this.notices.delete(key); // re-inserted last: the oldest keys are the ones forgotten
    this.notices.set(key, { notice, dismissed: false });
    if (this.notices.size > REMEMBERED) this.notices.delete(this.notices.keys().next().value as string);
    return { notice, speak: known === undefined };
  }

  dismiss(key: string): void {
    const known = this.notices.get(key);
    if (known) known.dismissed = true;
  }
}

/**
 * The notice's text in the user's language from its data; the server's (Chinese, spoken) message when the
 * notice carries no data (an older server).
 */
export function noticeBody(t: TFunction, notice: StopNotice): string {
  const stop = notice.stop;
  if (!stop) return notice.msg;
  const energy = stop.energyWh === undefined ? '' : t('notice.bodyEnergy', { kwh: formatKwh(stop.energyWh) });
  return t(Number(notice.type) === 1 ? 'notice.bodyNormal' : 'notice.bodyAbnormal', {
    pile: stop.chargePointId,
    gun: stop.connectorId,
    reason: codeLabel(t, 'billing.stopReason', stop.reason),
    energy,
    transaction: stop.transactionId,
  });
}
