import type { DomainException } from '@voltdepot/server-core';

/**
 * What the IC-card area needs of the ledger (the ledger's `LedgerService` fits; the app wires it in, as
 * areas do not import each other). Shapes are the ledger's, narrowed to what this area reads.
 */
export type IcCardLedgerAccount = { id: number; kind: string; balanceFen: number };

export type IcCardPosting = {
  id: number;
  replayed: boolean;
  entries: { accountId: number; amountFen: number }[];
};

type Meta = {
  idempotencyKey: string;
  operatorId?: number | null;
  reference?: string | null;
  memo?: string | null;
};

export interface IcCardLedger {
  openAccount(input: {
    kind: 'personal' | 'group' | 'group_sub';
    name: string;
    parentId?: number | null;
    customerId?: number | null;
    companyId?: number | null;
  }): Promise<IcCardLedgerAccount>;
  account(id: number): Promise<IcCardLedgerAccount>;
  recharge(meta: Meta & { accountId: number; amountFen: number }): Promise<IcCardPosting>;
  refund(meta: Meta & { accountId: number; amountFen?: number }): Promise<IcCardPosting>;
  allocate(meta: Meta & { groupId: number; subId: number; amountFen: number }): Promise<IcCardPosting>;
  reclaim(meta: Meta & { groupId: number; subId: number; amountFen: number }): Promise<IcCardPosting>;
  linkCard(idTag: string, accountId: number): Promise<void>;
}

/** Injection token of the ledger given to `IcCardModule.forRoot`. */
export const ICCARD_LEDGER = Symbol('ICCARD_LEDGER');

/** The ledger's refusal codes this area answers in its own words (docs/ledger.md). */
export const LEDGER_CODES = {
  insufficientBalance: 'LEDGER_INSUFFICIENT_BALANCE',
  refundNotAllowed: 'LEDGER_REFUND_NOT_ALLOWED',
  accountFrozen: 'LEDGER_ACCOUNT_FROZEN',
  idempotencyConflict: 'LEDGER_IDEMPOTENCY_CONFLICT',
} as const;

export type LedgerRefusal = Pick<DomainException, 'code'>;
