import { createHash } from 'node:crypto';
import {
  assertPositiveFen,
  blockedReason,
  consumptionEntries,
  creditEntries,
  isCustomerKind,
  refundEntries,
  transferEntries,
  validateEntries,
  type EntryRequest,
  type LockedAccount,
} from './ledger-postings';
import { LedgerErrorCode, LedgerException } from './ledger.exception';
import { DEFAULT_MINIMUM_BALANCE_FEN } from './authorisation/card-authorisation';
import type {
  LedgerAccount,
  LedgerRepository,
  OpenAccountInput,
  PostedTransaction,
  TransactionMeta,
} from './ledger.repository';

export type LedgerOptions = {
  /** A card whose account's balance is below this (fen) is blocked (default 1: an empty account is). */
  minimumBalanceFen: number;
};

export const DEFAULT_LEDGER_OPTIONS: LedgerOptions = { minimumBalanceFen: DEFAULT_MINIMUM_BALANCE_FEN };

/** Who posts and why: the key makes a retried request find what it posted. */
export type PostingMeta = Omit<TransactionMeta, 'kind'>;

type Repository = Pick<
  LedgerRepository,
  | 'post'
  | 'systemAccountId'
  | 'openAccount'
  | 'account'
  | 'setFrozen'
  | 'linkCard'
  | 'unlinkCard'
  | 'accountOfCard'
  | 'accountOfOrder'
>;

/** The request's fingerprint: a key used again with another request is a conflict. */
export function requestHash(request: unknown): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('hex');
}

const notFound = (id: number) =>
  new LedgerException(LedgerErrorCode.AccountNotFound, `ledger account ${id} not found`, { accountId: id });

/** The customer account and its arrears account among the locked ones. */
function customerAndArrears(accounts: ReadonlyMap<number, LockedAccount>, id: number) {
  const customer = accounts.get(id);
  if (!customer || !isCustomerKind(customer.kind)) throw notFound(id);
  const arrears = [...accounts.values()].find((a) => a.kind === 'arrears' && a.parentId === id);
  if (!arrears) throw new Error(`ledger account ${id} has no arrears account`);
  return { customer, arrears };
}

function customer(accounts: ReadonlyMap<number, LockedAccount>, id: number): LockedAccount {
  const account = accounts.get(id);
  if (!account || !isCustomerKind(account.kind)) throw notFound(id);
  return account;
}

/**
 * The ledger's rules: every movement of money is one balanced transaction posted exactly once per
 * idempotency key (see `LedgerRepository.post`); recharges, refunds, allocations within a group, charging
 * consumption (with arrears when the balance cannot cover it) and corrections.
 */
export class LedgerService {
  constructor(
    private readonly repository: Repository,
    private readonly options: LedgerOptions = DEFAULT_LEDGER_OPTIONS,
  ) {}

  async openAccount(input: OpenAccountInput): Promise<LedgerAccount> {
    if (input.kind === 'group_sub') {
      const parent = input.parentId ? await this.repository.account(input.parentId) : undefined;
      if (parent?.kind !== 'group')
        throw new LedgerException(LedgerErrorCode.NotSubAccount, 'a sub-account belongs to a group account', {
          parentId: input.parentId ?? null,
        });
    } else if (input.parentId) {
      throw new LedgerException(LedgerErrorCode.InvalidPosting, 'only a sub-account has a parent account');
    }
    return this.repository.openAccount(input);
  }

  async account(id: number): Promise<LedgerAccount> {
    const account = await this.repository.account(id);
    if (!account) throw notFound(id);
    return account;
  }

  async setFrozen(id: number, frozen: boolean): Promise<void> {
    if (!(await this.repository.setFrozen(id, frozen))) throw notFound(id);
  }

  /** Any balanced set of entries (a correction, or what the operations below do not cover). */
  post(meta: TransactionMeta & { entries: EntryRequest[] }): Promise<PostedTransaction> {
    validateEntries(meta.entries);
    const entries = [...meta.entries].sort((a, b) => a.accountId - b.accountId);
    return this.repository.post({
      ...meta,
      requestHash: requestHash({ op: 'post', kind: meta.kind, ...this.metaOf(meta), entries }),
      lockIds: entries.map((e) => e.accountId),
      plan: () => entries,
    });
  }

  /** Money received into a customer account: it settles the account's arrears first. */
  async recharge(meta: PostingMeta & { accountId: number; amountFen: number }): Promise<PostedTransaction> {
    assertPositiveFen(meta.amountFen, 'recharge amount');
    const cash = await this.repository.systemAccountId('cash');
    return this.repository.post({
      ...meta,
      kind: 'recharge',
      requestHash: requestHash({
        op: 'recharge',
        ...this.metaOf(meta),
        a: meta.accountId,
        f: meta.amountFen,
      }),
      lockIds: [meta.accountId],
      plan: (accounts) => {
        const { customer, arrears } = customerAndArrears(accounts, meta.accountId);
        return creditEntries(customer, arrears, cash, meta.amountFen);
      },
    });
  }

  /** Money paid back: refused when the balance is not above 0; the whole balance unless `amountFen`. */
  async refund(meta: PostingMeta & { accountId: number; amountFen?: number }): Promise<PostedTransaction> {
    if (meta.amountFen !== undefined) assertPositiveFen(meta.amountFen, 'refund amount');
    const cash = await this.repository.systemAccountId('cash');
    return this.repository.post({
      ...meta,
      kind: 'refund',
      requestHash: requestHash({
        op: 'refund',
        ...this.metaOf(meta),
        a: meta.accountId,
        f: meta.amountFen ?? null,
      }),
      lockIds: [meta.accountId],
      plan: (accounts) => refundEntries(customer(accounts, meta.accountId), cash, meta.amountFen),
    });
  }

  /** Balance from a group account to one of its sub-accounts. */
  allocate(
    meta: PostingMeta & { groupId: number; subId: number; amountFen: number },
  ): Promise<PostedTransaction> {
    return this.transfer('allocation', meta, meta.groupId, meta.subId);
  }

  /** Balance taken back from a sub-account to its group. */
  reclaim(
    meta: PostingMeta & { groupId: number; subId: number; amountFen: number },
  ): Promise<PostedTransaction> {
    return this.transfer('reclaim', meta, meta.subId, meta.groupId);
  }

  private transfer(
    kind: 'allocation' | 'reclaim',
    meta: PostingMeta & { groupId: number; subId: number; amountFen: number },
    fromId: number,
    toId: number,
  ): Promise<PostedTransaction> {
    assertPositiveFen(meta.amountFen);
    return this.repository.post({
      ...meta,
      kind,
      requestHash: requestHash({
        op: kind,
        ...this.metaOf(meta),
        g: meta.groupId,
        s: meta.subId,
        f: meta.amountFen,
      }),
      lockIds: [fromId, toId],
      plan: (accounts) =>
        transferEntries(customer(accounts, fromId), customer(accounts, toId), meta.amountFen),
    });
  }

  /**
   * Charging consumption drawn from an account (`amountFen` > 0), or credited back by an amendment (< 0).
   * What the balance cannot cover becomes arrears; a credit settles arrears first.
   */
  async consume(
    meta: PostingMeta & {
      kind: 'consumption' | 'consumption_amendment';
      accountId: number;
      amountFen: number;
    },
  ): Promise<PostedTransaction> {
    const revenue = await this.repository.systemAccountId('revenue');
    return this.repository.post({
      ...meta,
      requestHash: requestHash({ op: meta.kind, ...this.metaOf(meta), a: meta.accountId, f: meta.amountFen }),
      lockIds: [meta.accountId],
      plan: (accounts) => {
        const { customer, arrears } = customerAndArrears(accounts, meta.accountId);
        return consumptionEntries(customer, arrears, revenue, meta.amountFen);
      },
    });
  }

  /** Why a card on this account must be refused a charge, or undefined when it may charge. */
  async blockedReason(accountId: number) {
    return blockedReason(await this.account(accountId), this.options.minimumBalanceFen);
  }

  /** Frozen, owing arrears, or a balance below the configured minimum. */
  async isBlocked(accountId: number): Promise<boolean> {
    return (await this.blockedReason(accountId)) !== undefined;
  }

  async linkCard(idTag: string, accountId: number): Promise<void> {
    const account = await this.account(accountId);
    if (!isCustomerKind(account.kind)) throw notFound(accountId);
    await this.repository.linkCard(idTag, accountId);
  }

  unlinkCard(idTag: string): Promise<void> {
    return this.repository.unlinkCard(idTag);
  }

  accountOfCard(idTag: string): Promise<number | undefined> {
    return this.repository.accountOfCard(idTag);
  }

  accountOfOrder(orderNo: string): Promise<number | undefined> {
    return this.repository.accountOfOrder(orderNo);
  }

  private metaOf(meta: PostingMeta) {
    return {
      k: meta.idempotencyKey,
      o: meta.operatorId ?? null,
      r: meta.reference ?? null,
      m: meta.memo ?? null,
    };
  }
}
