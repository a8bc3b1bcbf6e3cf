import { Logger } from '@nestjs/common';
import type { SubscribeOptions } from '@voltdepot/server-messaging';
import { IcCardChanged, icCardChangedV1Schema, Topics, type EventEnvelope } from '@voltdepot/shared-events';
import type { EntityManager } from 'typeorm';
import type { CardRepository } from './card.repository';
import { idTagStatusOf, type IdTagRepository } from './id-tag.repository';
import { chargingCardOf, latestPerCard, unsyncableReason, type IcCardState } from './ic-card-states';

/** The api workers share this group: each IC card's state is applied once, to the one card table. */
export const ICCARD_CARDS_GROUP = 'assets-iccard-cards';

type Log = Pick<Logger, 'warn'>;

/** Why an IC card got no charging card (so the pile answers it Invalid): a label of the skip counter. */
export type IcCardSkipReason = 'numberTooLong' | 'selfNumberTaken';

/**
 * Keeps the basic-data charging card of each IC card (`iccard.card.changed`), and with it the gateway's
 * id tag, as a card edited on the grid is kept: the card and its id tag in one transaction. Idempotent
 * without processed-event marks: a state is applied only over an older one (`ic_card_sequence`), so a
 * redelivered, reordered or replayed event changes nothing. A card that cannot have a charging card
 * (a number longer than 16, registered before the IC-card area refused them, or a self number another
 * charging card has) is skipped, not retried: logged and counted, so the operator sees it on /metrics.
 */
export class IcCardSyncService {
  constructor(
    private readonly transaction: <T>(work: (m: EntityManager) => Promise<T>) => Promise<T>,
    private readonly cards: Pick<CardRepository, 'syncFromIcCard'>,
    private readonly idTags: Pick<IdTagRepository, 'upsert'>,
    private readonly logger: Log = new Logger('IcCardSync'),
    /** Counts a skipped card (the worker's `voltdepot_iccard_cards_skipped_total{reason}`). */
    private readonly skipped: (reason: IcCardSkipReason) => void = () => undefined,
  ) {}

  /** Applies each card's latest state; answers the card numbers whose id tag changed. */
  async apply(states: readonly IcCardState[]): Promise<string[]> {
    const applied: string[] = [];
    for (const state of latestPerCard(states)) {
      const why = unsyncableReason(state);
      if (why) {
        this.logger.warn(`IC card ${state.cardNo} has no charging card: ${why}`);
        this.skipped('numberTooLong');
        continue;
      }
      const card = chargingCardOf(state);
      const done = await this.transaction(async (m) => {
        const synced = await this.cards.syncFromIcCard(m, card);
        if (synced.outcome === 'created' || synced.outcome === 'updated')
          await this.idTags.upsert(m, card.physicalNumber, idTagStatusOf(card.status), synced.expiryDate);
        return synced.outcome;
      });
      if (done === 'conflict') {
        this.logger.warn(
          `IC card ${state.cardNo} has no charging card: another charging card has the self number ${card.selfNumber}`,
        );
        this.skipped('selfNumberTaken');
      } else if (done !== 'stale') applied.push(card.physicalNumber);
    }
    return applied;
  }
}

/** The assets' consumer of the IC-card area's card announcements (topic `iccard.cards`). */
export function icCardSyncSubscription(service: IcCardSyncService, logger: Log): SubscribeOptions {
  return {
    topics: [Topics.IcCards],
    group: ICCARD_CARDS_GROUP,
    maxBatchSize: 200,
    batchHandler: async (envelopes) => {
      const states = envelopes.flatMap((envelope) => stateOf(envelope, logger));
      if (states.length) await service.apply(states);
    },
  };
}

function stateOf(envelope: EventEnvelope, logger: Log): IcCardState[] {
  if (!IcCardChanged.is(envelope)) return [];
  const parsed = icCardChangedV1Schema.safeParse(envelope.payload);
  if (!parsed.success) {
    // Not retried: it would fail the same way every time.
    logger.warn(
      `IC card event ${envelope.eventId} ignored: ${parsed.error.issues.map((i) => i.message).join('; ')}`,
    );
    return [];
  }
  return [parsed.data];
}
