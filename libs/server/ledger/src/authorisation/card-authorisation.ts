import type { CardBlockedReason } from '@voltdepot/shared-events';
import { blockedReason, isCustomerKind, type LockedAccount, type PlannedEntry } from '../ledger-postings';

/** Blocked below this balance (fen) unless configured: an empty account is. */
export const DEFAULT_MINIMUM_BALANCE_FEN = 1;

/** Whether the cards on an account may charge, and why not. */
export type CardAuthorisation = { blocked: boolean; reason?: CardBlockedReason };

export function authorisationOf(
  account: { frozen: boolean; balanceFen: number; arrearsFen: number },
  minimumBalanceFen: number,
): CardAuthorisation {
  const reason = blockedReason(account, minimumBalanceFen);
  return reason ? { blocked: true, reason } : { blocked: false };
}

export const sameAuthorisation = (a: CardAuthorisation, b: CardAuthorisation) =>
  a.blocked === b.blocked && a.reason === b.reason;

/**
 * The customer accounts whose cards' authorisation a posting changes, with the new one: `locked` are the
 * accounts as locked before the posting (customer accounts with their arrears accounts), `entries` what
 * it posts. Only a change is announced, so most postings (a consumption leaving money on the account)
 * add nothing to their transaction.
 */
export function authorisationChanges(
  locked: ReadonlyMap<number, LockedAccount>,
  entries: readonly PlannedEntry[],
  minimumBalanceFen: number,
): Map<number, CardAuthorisation> {
  const after = new Map<number, number>();
  for (const e of entries) if (e.balanceAfterFen !== null) after.set(e.accountId, e.balanceAfterFen);
  const arrearsOf = new Map<number, LockedAccount>();
  for (const a of locked.values())
    if (a.kind === 'arrears' && a.parentId !== null) arrearsOf.set(a.parentId, a);

  const changes = new Map<number, CardAuthorisation>();
  for (const account of locked.values()) {
    if (!isCustomerKind(account.kind)) continue;
    const arrears = arrearsOf.get(account.id);
    if (!after.has(account.id) && !(arrears && after.has(arrears.id))) continue;
    const arrearsBefore = arrears ? -arrears.balanceFen : 0;
    const before = authorisationOf(
      { frozen: account.frozen, balanceFen: account.balanceFen, arrearsFen: arrearsBefore },
      minimumBalanceFen,
    );
    const now = authorisationOf(
      {
        frozen: account.frozen,
        balanceFen: after.get(account.id) ?? account.balanceFen,
        arrearsFen: arrears ? -(after.get(arrears.id) ?? arrears.balanceFen) : 0,
      },
      minimumBalanceFen,
    );
    if (!sameAuthorisation(before, now)) changes.set(account.id, now);
  }
  return changes;
}
