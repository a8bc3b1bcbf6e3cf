import { Logger } from '@nestjs/common';
import type { EventEnvelope } from '@voltdepot/shared-events';
import type { PostedTransaction } from '../ledger.repository';
import type { LedgerService } from '../ledger.service';
import { orderConsumptionOf } from './order-consumption';

export const LEDGER_CONSUMPTION_GROUP = 'ledger-consumption';

type Ledger = Pick<LedgerService, 'consume' | 'accountOfCard' | 'accountOfOrder'>;

/**
 * Charging consumption from billing's order events: an order whose card draws on a ledger account is
 * debited once per version (the posting's idempotency key), an amendment by its difference, on the
 * account the order was first posted on. Orders of cards with no account are not the ledger's.
 */
export class ConsumptionService {
  private readonly logger = new Logger('LedgerConsumption');

  constructor(private readonly ledger: Ledger) {}

  concerns(envelope: EventEnvelope): boolean {
    return orderConsumptionOf(envelope) !== undefined;
  }

  async apply(envelope: EventEnvelope): Promise<PostedTransaction | undefined> {
    const consumption = orderConsumptionOf(envelope);
    if (!consumption) return undefined;
    const { orderNo, version, idTag } = consumption;
    const accountId =
      (version > 1 ? await this.ledger.accountOfOrder(orderNo) : undefined) ??
      (idTag ? await this.ledger.accountOfCard(idTag) : undefined);
    if (accountId === undefined) {
      this.logger.debug(`order ${orderNo} v${version}: card ${idTag ?? '(none)'} has no ledger account`);
      return undefined;
    }
    return this.ledger.consume({
      kind: consumption.kind,
      idempotencyKey: consumption.idempotencyKey,
      accountId,
      amountFen: consumption.amountFen,
      reference: orderNo,
      memo: `order ${orderNo} version ${version}`,
    });
  }
}
