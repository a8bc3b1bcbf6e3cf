import { LedgerErrorCode, LedgerException } from './ledger.exception';

/** Accounts a customer holds money in: never below zero. */
export const CUSTOMER_KINDS = ['personal', 'group', 'group_sub'] as const;
export type CustomerAccountKind = (typeof CUSTOMER_KINDS)[number];
/**
 * `arrears`: the receivable of one customer account (its child), never above zero: minus what the
 * customer owes. `cash` (money received) and `revenue` (charging consumption): the system side, whose
 * balance is the sum of their entries (no cached balance, see docs/ledger.md).
 */
export type AccountKind = CustomerAccountKind | 'arrears' | 'cash' | 'revenue';

export type TransactionKind =
  'recharge' | 'refund' | 'consumption' | 'consumption_amendment' | 'allocation' | 'reclaim' | 'correction';

/** Transactions that record what already happened at a pile (or an operator's fix): a frozen account takes them. */
const POSTED_ON_FROZEN: ReadonlySet<TransactionKind> = new Set([
  'consumption',
  'consumption_amendment',
  'correction',
]);

export type EntryRequest = { accountId: number; amountFen: number };

/** An account as locked for a posting. */
export type LockedAccount = {
  id: number;
  kind: AccountKind;
  parentId: number | null;
  balanceFen: number;
  frozen: boolean;
};

export type PlannedEntry = EntryRequest & { balanceBeforeFen: number | null; balanceAfterFen: number | null };

export const isCustomerKind = (kind: AccountKind): kind is CustomerAccountKind =>
  (CUSTOMER_KINDS as readonly string[]).includes(kind);

/** Accounts whose balance is cached on their row (and locked for a posting): all but cash and revenue. */
export const hasCachedBalance = (kind: AccountKind) => kind !== 'cash' && kind !== 'revenue';

const invalid = (message: string, details?: unknown) =>
  new LedgerException(LedgerErrorCode.InvalidPosting, message, details);

/** An amount of money an operation moves: a positive whole number of fen. */
export function assertPositiveFen(fen: number, what = 'amount'): void {
  if (!Number.isSafeInteger(fen) || fen <= 0)
    throw invalid(`${what} must be a positive whole number of fen`, { fen });
}

/** Two entries at least, none zero or fractional, an account at most once, summing to zero. */
export function validateEntries(entries: EntryRequest[]): void {
  if (entries.length < 2) throw invalid('a ledger transaction has two entries at least');
  const seen = new Set<number>();
  let sum = 0;
  for (const e of entries) {
    if (!Number.isSafeInteger(e.amountFen) || e.amountFen === 0)
      throw invalid('an entry moves a non-zero whole number of fen', e);
    if (seen.has(e.accountId)) throw invalid('an account appears once in a transaction', e);
    seen.add(e.accountId);
    sum += e.amountFen;
  }
  if (sum !== 0) throw invalid(`the entries of a transaction sum to zero (these sum to ${sum})`, { sum });
}

/**
 * The entries with the balances before and after each (cached accounts), checked against the rules: a
 * customer account never below zero (insufficient balance), an arrears account never above zero, a
 * frozen account takes only consumption and corrections.
 */
export function applyEntries(
  kind: TransactionKind,
  entries: EntryRequest[],
  accounts: ReadonlyMap<number, LockedAccount>,
): PlannedEntry[] {
  validateEntries(entries);
  return entries.map((e) => {
    const account = accounts.get(e.accountId);
    if (!account)
      throw new LedgerException(LedgerErrorCode.AccountNotFound, `ledger account ${e.accountId} not found`, {
        accountId: e.accountId,
      });
    if (!hasCachedBalance(account.kind)) return { ...e, balanceBeforeFen: null, balanceAfterFen: null };
    if (account.frozen && !POSTED_ON_FROZEN.has(kind))
      throw new LedgerException(LedgerErrorCode.AccountFrozen, `ledger account ${account.id} is frozen`, {
        accountId: account.id,
      });
    const before = account.balanceFen;
    const after = before + e.amountFen;
    if (isCustomerKind(account.kind) && after < 0)
      throw new LedgerException(LedgerErrorCode.InsufficientBalance, 'insufficient balance', {
        accountId: account.id,
        balanceFen: before,
        amountFen: -e.amountFen,
      });
    if (account.kind === 'arrears' && after > 0)
      throw invalid('an arrears account cannot go above zero', { accountId: account.id, after });
    return { ...e, balanceBeforeFen: before, balanceAfterFen: after };
  });
}

const nonZero = (entries: EntryRequest[]) => entries.filter((e) => e.amountFen !== 0);

/**
 * Money into a customer account from outside (`sourceId`: cash for a recharge, revenue for a consumption
 * credited back): it settles the account's arrears first, the rest goes to its balance.
 */
export function creditEntries(
  customer: LockedAccount,
  arrears: LockedAccount,
  sourceId: number,
  fen: number,
): EntryRequest[] {
  const settles = Math.min(fen, -arrears.balanceFen);
  return nonZero([
    { accountId: sourceId, amountFen: -fen },
    { accountId: arrears.id, amountFen: settles },
    { accountId: customer.id, amountFen: fen - settles },
  ]);
}

/**
 * A charge drawn from a customer account: what the balance covers is debited, the shortfall becomes
 * arrears (the balance stops at zero, never below).
 */
export function chargeEntries(
  customer: LockedAccount,
  arrears: LockedAccount,
  revenueId: number,
  fen: number,
): EntryRequest[] {
  const covered = Math.min(fen, Math.max(0, customer.balanceFen));
  return nonZero([
    { accountId: revenueId, amountFen: fen },
    { accountId: customer.id, amountFen: -covered },
    { accountId: arrears.id, amountFen: -(fen - covered) },
  ]);
}

/** A consumption (positive: the order costs this much more) or a consumption credited back (negative). */
export function consumptionEntries(
  customer: LockedAccount,
  arrears: LockedAccount,
  revenueId: number,
  fen: number,
): EntryRequest[] {
  if (!Number.isSafeInteger(fen) || fen === 0)
    throw invalid('a consumption moves a non-zero whole number of fen');
  return fen > 0
    ? chargeEntries(customer, arrears, revenueId, fen)
    : creditEntries(customer, arrears, revenueId, -fen);
}

/** Money paid back to the customer: only from a balance above zero, and no more than the balance. */
export function refundEntries(
  customer: LockedAccount,
  cashId: number,
  fen: number | undefined,
): EntryRequest[] {
  if (customer.balanceFen <= 0)
    throw new LedgerException(
      LedgerErrorCode.RefundNotAllowed,
      'refund refused when the balance is not above 0',
      { accountId: customer.id, balanceFen: customer.balanceFen },
    );
  const amount = fen ?? customer.balanceFen;
  assertPositiveFen(amount);
  return [
    { accountId: customer.id, amountFen: -amount },
    { accountId: cashId, amountFen: amount },
  ];
}

/** Balance moved between a group account and one of its sub-accounts (either way). */
export function transferEntries(from: LockedAccount, to: LockedAccount, fen: number): EntryRequest[] {
  assertPositiveFen(fen);
  const [group, sub] = from.kind === 'group' ? [from, to] : [to, from];
  if (group.kind !== 'group' || sub.kind !== 'group_sub' || sub.parentId !== group.id)
    throw new LedgerException(
      LedgerErrorCode.NotSubAccount,
      `account ${sub.id} is not a sub-account of group ${group.id}`,
      { groupId: group.id, subId: sub.id },
    );
  return [
    { accountId: from.id, amountFen: -fen },
    { accountId: to.id, amountFen: fen },
  ];
}

/**
 * Whether the card on an account must be refused a charge: frozen, owing arrears, or a balance below the
 * minimum.
 */
export function blockedReason(
  account: { frozen: boolean; balanceFen: number; arrearsFen: number },
  minimumBalanceFen: number,
): 'frozen' | 'arrears' | 'belowMinimum' | undefined {
  if (account.frozen) return 'frozen';
  if (account.arrearsFen > 0) return 'arrears';
  if (account.balanceFen < minimumBalanceFen) return 'belowMinimum';
  return undefined;
}
