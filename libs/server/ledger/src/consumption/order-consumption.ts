import { OrderAmended, OrderSettled, type EventEnvelope } from '@voltdepot/shared-events';

/** What one order event asks of the ledger: draw (or credit back) this much for this order version. */
export type OrderConsumption = {
  kind: 'consumption' | 'consumption_amendment';
  orderNo: string;
  version: number;
  idTag: string | undefined;
  /** Positive: the account pays this much more; negative: it gets this much back. */
  amountFen: number;
  /** One posting per order version, whatever redelivers or replays the event. */
  idempotencyKey: string;
};

export const orderPostingKey = (orderNo: string, version: number) => `order:${orderNo}:v${version}`;

/**
 * The consumption an order event posts: `order.settled` (v2) the order's total as version 1, an
 * `order.amended` only its difference from the version before. Undefined for other events and for
 * versions that change nothing billed (a held order settles at 0). Throws for figures that are not whole
 * fen (or a negative total): the event is retried, then dead-lettered, never posted as something else.
 */
export function orderConsumptionOf(envelope: EventEnvelope): OrderConsumption | undefined {
  if (OrderSettled.is(envelope)) {
    const p = envelope.payload;
    if (p.totalFen === 0) return undefined;
    if (!Number.isSafeInteger(p.totalFen) || p.totalFen < 0)
      throw new Error(
        `order ${p.orderNo} settled at ${p.totalFen} fen: not a whole number of fen, 0 or more`,
      );
    return {
      kind: 'consumption',
      orderNo: p.orderNo,
      version: 1,
      idTag: p.idTag,
      amountFen: p.totalFen,
      idempotencyKey: orderPostingKey(p.orderNo, 1),
    };
  }
  if (OrderAmended.is(envelope)) {
    const p = envelope.payload;
    const fen = p.difference?.totalFen;
    if (fen === 0) return undefined;
    if (!Number.isSafeInteger(fen) || !Number.isSafeInteger(p.version) || p.version < 2)
      throw new Error(
        `order ${p.orderNo} amended (version ${p.version}) by ${fen} fen: not a whole number of fen`,
      );
    return {
      kind: 'consumption_amendment',
      orderNo: p.orderNo,
      version: p.version,
      idTag: p.idTag,
      amountFen: p.difference.totalFen,
      idempotencyKey: orderPostingKey(p.orderNo, p.version),
    };
  }
  return undefined;
}
