import type { CardAuthorisationChangedV1 } from '@voltdepot/shared-events';

/** A card's state as the ledger last announced it (the gateway's `id_tag_ledger_state` row). */
export type LedgerCardState = Pick<
  CardAuthorisationChangedV1,
  'idTag' | 'blocked' | 'reason' | 'accountId' | 'sequence' | 'changedAt'
>;

/**
 * Last writer wins by sequence: of several states of one card, the one with the highest sequence; a
 * state is applied over a stored one only when its sequence is higher (`supersedes`). So events that
 * arrive reordered, redelivered or replayed from the start of the topic never bring back an older state.
 */
export function latestPerCard(states: readonly LedgerCardState[]): LedgerCardState[] {
  const latest = new Map<string, LedgerCardState>();
  for (const state of states) {
    const kept = latest.get(state.idTag);
    if (!kept || supersedes(state, kept)) latest.set(state.idTag, state);
  }
  return [...latest.values()];
}

/** Whether `candidate` replaces `stored` (the same rule as the upsert's WHERE). */
export function supersedes(
  candidate: LedgerCardState,
  stored: Pick<LedgerCardState, 'sequence'> | undefined,
) {
  return stored === undefined || candidate.sequence > stored.sequence;
}
