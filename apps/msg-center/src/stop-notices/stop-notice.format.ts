import type { OrderFigures, TransactionStoppedV1 } from '@voltdepot/shared-events';
import { STOP_REASON_LABELS, type StopNotice } from '@voltdepot/shared-contracts';
import { formatBusinessTime } from '../shared/business-time';

export const STOP_NOTICE_TYPE_NORMAL = 1;
export const STOP_NOTICE_TYPE_ABNORMAL = 2;

/** An OCPP 1.6 stop reason as the operator reads (and hears) it, in Chinese (the code when unknown). */
export function stopReasonText(reason: string): string {
  return Object.hasOwn(STOP_REASON_LABELS, reason)
    ? STOP_REASON_LABELS[reason as keyof typeof STOP_REASON_LABELS]['zh-CN']
    : reason;
}

/** `<chargePointId>/<transactionId>`: the same for a stop and its order. */
export function stopNoticeKey(event: Pick<TransactionStoppedV1, 'chargePointId' | 'transactionId'>): string {
  return `${event.chargePointId}/${event.transactionId}`;
}

/** The notice with the settled order's amount (fen; an order held for review says so). */
export function withAmount(notice: StopNotice, order: { totalFen: number; held: boolean }): StopNotice {
  return { ...notice, amountFen: order.totalFen, orderHeld: order.held };
}

/**
 * The order part of a notice from its `order.settled` event (either version), or from an `order.amended`
 * event's figures: the amount of the order's latest version (pay status 3: held as abnormal).
 */
export function noticeAmountOf(order: {
  orderNo: string;
  totalFen: number;
  payStatus: OrderFigures['payStatus'];
}): { orderNo: string; totalFen: number; held: boolean } {
  return { orderNo: order.orderNo, totalFen: order.totalFen, held: order.payStatus === 3 };
}

/**
 * The realtime notice of a stopped transaction: `{ type, msg, date, key }` (type 1 normal, 2 abnormal);
 * the amount joins it once the order is settled (`withAmount`).
 */
export function stopNoticeOf(stop: TransactionStoppedV1, timeZone: string): StopNotice {
  const normal = stop.stopKind === 'normal';
  const where = `充电桩${stop.chargePointId}的${stop.connectorId}号枪`;
  const energy =
    stop.energyWh !== undefined && stop.energyWh >= 0
      ? `，充电量${(stop.energyWh / 1000).toFixed(2)}千瓦时`
      : '';
  const msg = normal
    ? `${where}充电正常结束，原因：${stopReasonText(stop.reason)}${energy}`
    : `${where}充电异常停止，原因：${stopReasonText(stop.reason)}${energy}，交易号${stop.transactionId}`;
  return {
    type: normal ? STOP_NOTICE_TYPE_NORMAL : STOP_NOTICE_TYPE_ABNORMAL,
    msg,
    date: formatBusinessTime(stop.timestamp, timeZone),
    key: stopNoticeKey(stop),
    stop: {
      chargePointId: stop.chargePointId,
      connectorId: stop.connectorId,
      transactionId: stop.transactionId,
      reason: stop.reason,
      ...(stop.energyWh !== undefined && stop.energyWh >= 0 ? { energyWh: stop.energyWh } : {}),
    },
  };
}
