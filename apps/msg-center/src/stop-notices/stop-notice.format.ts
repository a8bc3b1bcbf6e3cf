import type { OrderFigures, TransactionStoppedV1 } from '@voltdepot/shared-events';
import type { StopNotice } from '@voltdepot/shared-contracts';
import { formatBusinessTime } from '../shared/business-time';

/** OCPP 1.6 stop reasons as the operator reads (and hears) them. */
const REASONS_ZH: Record<string, string> = {
  DeAuthorized: '授权失效',
  EmergencyStop: '紧急停止',
  EVDisconnected: '车辆断开连接',
  HardReset: '充电桩硬重启',
  Local: '本地停止',
  Other: '其他原因',
  PowerLoss: '断电',
  Reboot: '充电桩重启',
  Remote: '远程停止',
  SoftReset: '充电桩软重启',
  UnlockCommand: '解锁命令',
};

export const STOP_NOTICE_TYPE_NORMAL = 1;
export const STOP_NOTICE_TYPE_ABNORMAL = 2;

export function stopReasonText(reason: string): string {
  return REASONS_ZH[reason] ?? reason;
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
  };
}
