import type { EntityManager } from 'typeorm';
import { addToOutbox, createEnvelope } from '@voltdepot/server-messaging';
import type { CardStatus } from '@voltdepot/shared-contracts';
import { IcCardChanged, type IcCardChangedV1 } from '@voltdepot/shared-events';

type Row = Record<string, unknown>;

/** What the services ask of the announcer (their unit tests fake it). */
export type CardAnnouncer = Pick<CardAnnouncerWriter, 'announce' | 'announceCustomerCards'>;

/**
 * Announces an IC card's state (`iccard.card.changed` v1, topic `iccard.cards`, key the card number)
 * into the outbox, in the caller's transaction: the services call it after every write of a card's
 * status (registered, made, lost, released, replaced, swapped, logged out), so the change and its event
 * commit together. The assets area keeps the basic-data charging card, and so the pile's answer, in step.
 *
 * Ordering: `sequence` comes from `ic_card_change_seq`, taken while the caller holds the card's row (FOR
 * UPDATE in a card action, the new row's own lock on registration), so per card it rises in commit
 * order; the consumer keeps the highest. The state announced is read back here, in the same
 * transaction: what commits is what is announced.
 */
export class CardAnnouncerWriter {
  constructor(private readonly now: () => Date = () => new Date()) {}

  async announce(m: EntityManager, cardNo: string): Promise<IcCardChangedV1> {
    const [row]: Row[] = await m.query(
      `SELECT k.card_no, k.card_type, k.status, u.user_name, u.organization_id,
              nextval('ic_card_change_seq') AS sequence
         FROM ic_card k JOIN ic_customer u ON u.id = k.customer_id
        WHERE k.card_no = $1`,
      [cardNo],
    );
    if (!row) throw new Error(`IC card ${cardNo} not found`);
    const now = this.now();
    const payload = icCardChangedOf(row, now);
    await addToOutbox(m, createEnvelope(IcCardChanged, payload.cardNo, payload, { occurredAt: now }));
    return payload;
  }

  /**
   * Announces every card of a customer whose name or organisation changed (the charging cards' holder
   * and data scope): each card's row locked first, as a card action holds it, so its sequence still
   * rises in commit order. Answers the cards announced.
   */
  async announceCustomerCards(m: EntityManager, customerId: number): Promise<number> {
    const cards: Row[] = await m.query(
      `SELECT card_no FROM ic_card WHERE customer_id = $1 ORDER BY id FOR UPDATE`,
      [customerId],
    );
    for (const card of cards) await this.announce(m, String(card['card_no']));
    return cards.length;
  }
}

/** The event's payload of a card row (with its holder's name and organisation and a new sequence). */
export function icCardChangedOf(row: Row, at: Date): IcCardChangedV1 {
  const payload: IcCardChangedV1 = {
    cardNo: String(row['card_no']),
    cardType: Number(row['card_type']),
    status: row['status'] as CardStatus,
    organizationId: Number(row['organization_id']),
    sequence: Number(row['sequence']),
    changedAt: at.toISOString(),
  };
  if (row['user_name'] !== null && row['user_name'] !== undefined)
    payload.customerName = String(row['user_name']);
  return payload;
}
