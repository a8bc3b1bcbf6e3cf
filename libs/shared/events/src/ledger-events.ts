import { defineEvent } from './define-event';
import { Topics } from './topics';

/** Why the ledger refuses a card a charge (see the ledger's `blockedReason`). */
export type CardBlockedReason = 'frozen' | 'arrears' | 'belowMinimum';

/**
 * Whether a prepaid card may charge changed: its account's blocked state changed (a posting took the
 * balance below or back above the minimum, arrears were booked or settled, the account was frozen or
 * unfrozen), or the card was linked to an account, moved to another or unlinked. Written to the outbox in
 * the transaction that made the change. `sequence` rises with every change of any card (one database
 * sequence, taken under the card's lock): a consumer keeps, per card, the state with the highest
 * sequence, so a reordered or replayed event never brings back an older state. Key: idTag.
 */
export type CardAuthorisationChangedV1 = {
  idTag: string;
  /** The account the card draws on; absent once the card is unlinked (it is then not blocked). */
  accountId?: number;
  blocked: boolean;
  /** Why it is blocked (absent when it is not). */
  reason?: CardBlockedReason;
  sequence: number;
  changedAt: string;
};

export const CardAuthorisationChanged = defineEvent<CardAuthorisationChangedV1>()(
  Topics.LedgerCards,
  'ledger.card-authorisation.changed',
  1,
);
