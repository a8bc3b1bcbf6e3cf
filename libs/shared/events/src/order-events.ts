import { defineEvent } from './define-event';
import { Topics } from './topics';

/** An order was settled from a charging session (exactly once per pile transaction). */
export type OrderSettledV1 = {
  orderNo: string;
  chargePointId: string;
  connectorId: number;
  transactionId: number;
  energyWh: number;
  totalFen: number;
  /** 0 unpaid, 1 paid, 3 abnormal (held for review, not billed). */
  payStatus: 0 | 1 | 3;
  abnormalReasons: string[];
  stoppedAt: string;
};

export const OrderSettled = defineEvent<OrderSettledV1>()(Topics.Orders, 'order.settled', 1);
