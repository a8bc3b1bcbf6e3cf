import type { Logger } from 'pino';
import type { SubscribeOptions } from '@voltdepot/server-messaging';
import {
  CardAuthorisationChanged,
  cardAuthorisationChangedV1Schema,
  Topics,
  type EventEnvelope,
} from '@voltdepot/shared-events';
import type { IdTagCache } from './id-tag.cache';
import type { IdTagRepository } from './id-tag.repository';
import { latestPerCard, type LedgerCardState } from './ledger-card-states';

/** The gateway replicas share this group: each event is applied once, to the one shared table. */
export const LEDGER_CARDS_GROUP = 'ocpp-gateway-ledger-cards';

/**
 * The gateway's consumer of the ledger's card authorisation (`ledger.card-authorisation.changed`): each
 * batch keeps the latest state per card and upserts it into `id_tag_ledger_state` only over an older
 * sequence, so it is idempotent without processed-event marks and safe against reordering and replays.
 * Authorize and StartTransaction read that table with the card (`IdTagRepository.findMany`), so a card
 * blocked by the ledger is Blocked from the gateway's own data, whether or not the api is up. The cache
 * entry of an applied card is made stale on this replica (the next look-up reads it again; others within
 * their cache lifetime); its stale answer stays for when the database is down.
 */
export function ledgerCardsSubscription(deps: {
  repository: Pick<IdTagRepository, 'recordLedgerStates'>;
  idTags?: Pick<IdTagCache, 'expire'>;
  logger: Pick<Logger, 'warn'>;
}): SubscribeOptions {
  return {
    topics: [Topics.LedgerCards],
    group: LEDGER_CARDS_GROUP,
    maxBatchSize: 500,
    batchHandler: async (envelopes) => {
      const states = envelopes.flatMap((envelope) => stateOf(envelope, deps.logger));
      if (!states.length) return;
      const applied = await deps.repository.recordLedgerStates(latestPerCard(states));
      for (const idTag of applied) deps.idTags?.expire(idTag);
    },
  };
}

function stateOf(envelope: EventEnvelope, logger: Pick<Logger, 'warn'>): LedgerCardState[] {
  if (!CardAuthorisationChanged.is(envelope)) return [];
  const parsed = cardAuthorisationChangedV1Schema.safeParse(envelope.payload);
  if (!parsed.success) {
    // Not retried: it would fail the same way every time.
    logger.warn(
      { eventId: envelope.eventId, issues: parsed.error.issues },
      'card authorisation event ignored',
    );
    return [];
  }
  return [parsed.data];
}
