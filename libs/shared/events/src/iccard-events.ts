import type { CardStatus } from '@voltdepot/shared-contracts';
import { defineEvent } from './define-event';
import { Topics } from './topics';

/**
 * An IC card was registered or its status changed (made, reported lost, released, replaced, swapped,
 * logged out). Written to the outbox in the transaction that wrote the card. The assets area keeps the
 * basic-data charging card with that number (and so the gateway's id tag) in step with it. `sequence`
 * rises with every announcement of any card (one database sequence, taken under the card's row lock), so
 * a consumer keeps, per card, the state with the highest sequence: a reordered or replayed event never
 * brings back an older state. Key: cardNo.
 */
export type IcCardChangedV1 = {
  /** The card number: written on the card, sent by the pile as the OCPP idTag. */
  cardNo: string;
  /** Basic-data card type (§6): 0 driver, 1 consumer, 2 management, 3 charging. */
  cardType: number;
  /** The §4 card status (`CARD_STATUSES`), the IC-card area's. */
  status: CardStatus;
  /** The holder's name (the basic-data card's cardholder). */
  customerName?: string;
  /** The organisation the card's customer belongs to (the basic-data card's data scope). */
  organizationId: number;
  sequence: number;
  changedAt: string;
};

export const IcCardChanged = defineEvent<IcCardChangedV1>()(Topics.IcCards, 'iccard.card.changed', 1);
