import type { AbnormalReasonCode, OrderVersionKind } from '@voltdepot/shared-contracts';
import { defineEvent } from './define-event';
import { Topics } from './topics';

/**
 * An order was settled from a charging session (exactly once per pile transaction). Version 1 carried
 * the held order's reasons as English sentences; no longer published, still accepted by consumers for
 * events written before the upgrade.
 */
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
  /**
   * The card (or VIN) that started the session, when known; added later, so events written before carry
   * none (the ledger finds the prepaid account it draws on by it).
   */
  idTag?: string;
};

/** Version 2: the reasons are codes (`ABNORMAL_REASON_CODES`, labelled in both languages). */
export type OrderSettledV2 = Omit<OrderSettledV1, 'abnormalReasons'> & {
  /** Why the order is held (pay status 3) or flagged for review; empty for a plain billed order. */
  abnormalReasons: AbnormalReasonCode[];
};

/** The billed figures of one version of an order (money integer fen, energy integer Wh). */
export type OrderFigures = {
  meterStopWh: number;
  energyWh: number;
  electricityFen: number;
  serviceFen: number;
  totalFen: number;
  /** 0 unpaid, 1 paid, 3 abnormal (held: every amount is 0). */
  payStatus: 0 | 1 | 3;
};

/**
 * A settled order changed: a new version of it (the review billed a held order, an operator amended it, or
 * its real StopTransaction completed a lost stop). `difference` is this version minus the previous one, so a
 * consumer that applied `order.settled` and every earlier amendment adds exactly the difference. Published
 * once per version; `version` rises by one each time, per order (same key as `order.settled`, so in order).
 */
export type OrderAmendedV1 = {
  orderNo: string;
  chargePointId: string;
  connectorId: number;
  transactionId: number;
  /** The new version (the order as settled is version 1). */
  version: number;
  kind: OrderVersionKind;
  reason: string;
  /** The operator's user name, or `system` for a completion by the pile's stop. */
  amendedBy: string;
  amendedAt: string;
  /** The order as it is now. */
  figures: OrderFigures;
  /** `figures` minus the previous version's (fen and Wh; the pay status is not a difference). */
  difference: Omit<OrderFigures, 'payStatus'>;
  abnormalReasons: AbnormalReasonCode[];
  stoppedAt: string;
  /** The order's idTag, when known (absent from events written before it was added). */
  idTag?: string;
};

export const OrderSettledLegacy = defineEvent<OrderSettledV1>()(Topics.Orders, 'order.settled', 1);
export const OrderSettled = defineEvent<OrderSettledV2>()(Topics.Orders, 'order.settled', 2);
export const OrderAmended = defineEvent<OrderAmendedV1>()(Topics.Orders, 'order.amended', 1);
