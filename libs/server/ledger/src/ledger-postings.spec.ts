import {
  applyEntries,
  blockedReason,
  consumptionEntries,
  creditEntries,
  refundEntries,
  transferEntries,
  validateEntries,
  type LockedAccount,
} from './ledger-postings';
import { LedgerErrorCode, LedgerException } from './ledger.exception';

const CASH = 1;
const REVENUE = 2;
const account = (over: Partial<LockedAccount> = {}): LockedAccount => ({
  id: 10,
  kind: 'personal',
  parentId: null,
  balanceFen: 0,
  frozen: false,
  ...over,
});
const arrearsOf = (parent: LockedAccount, balanceFen = 0) =>
  account({ id: parent.id + 1, kind: 'arrears', parentId: parent.id, balanceFen });
const codeOf = (work: () => unknown) => {
  try {
    work();
  } catch (e) {
    return (e as LedgerException).code;
  }
  return 'no error';
};
const sum = (entries: { amountFen: number }[]) => entries.reduce((s, e) => s + e.amountFen, 0);

describe('validateEntries', () => {
  it.each([
    ['one entry', [{ accountId: 1, amountFen: 0 }]],
    [
      'not summing to zero',
      [
        { accountId: 1, amountFen: 5 },
        { accountId: 2, amountFen: -4 },
      ],
    ],
    [
      'a zero entry',
      [
        { accountId: 1, amountFen: 0 },
        { accountId: 2, amountFen: 0 },
      ],
    ],
    [
      'a fraction of a fen',
      [
        { accountId: 1, amountFen: 0.5 },
        { accountId: 2, amountFen: -0.5 },
      ],
    ],
    [
      'an account twice',
      [
        { accountId: 1, amountFen: 5 },
        { accountId: 1, amountFen: -5 },
      ],
    ],
  ])('refuses %s', (_case, entries) => {
    expect(codeOf(() => validateEntries(entries))).toBe(LedgerErrorCode.InvalidPosting);
  });

  it('takes balanced entries', () => {
    expect(() =>
      validateEntries([
        { accountId: 1, amountFen: 5 },
        { accountId: 2, amountFen: -5 },
      ]),
    ).not.toThrow();
  });
});

describe('applyEntries', () => {
  const personal = account({ balanceFen: 100 });
  const accounts = new Map<number, LockedAccount>([
    [personal.id, personal],
    [CASH, account({ id: CASH, kind: 'cash' })],
  ]);

  it('records the balance before and after on cached accounts, none on system accounts', () => {
    expect(applyEntries('refund', refundEntries(personal, CASH, 30), accounts)).toEqual([
      { accountId: 10, amountFen: -30, balanceBeforeFen: 100, balanceAfterFen: 70 },
      { accountId: CASH, amountFen: 30, balanceBeforeFen: null, balanceAfterFen: null },
    ]);
  });

  it('refuses to take a customer account below zero: insufficient balance', () => {
    expect(codeOf(() => applyEntries('refund', refundEntries(personal, CASH, 101), accounts))).toBe(
      LedgerErrorCode.InsufficientBalance,
    );
  });

  it('refuses operator postings on a frozen account but records its consumption', () => {
    const frozen = new Map(accounts).set(10, { ...personal, frozen: true });
    const entries = [
      { accountId: 10, amountFen: -10 },
      { accountId: CASH, amountFen: 10 },
    ];
    expect(codeOf(() => applyEntries('refund', entries, frozen))).toBe(LedgerErrorCode.AccountFrozen);
    expect(applyEntries('consumption', entries, frozen)[0].balanceAfterFen).toBe(90);
  });

  it('refuses an account it was not given', () => {
    expect(
      codeOf(() =>
        applyEntries(
          'correction',
          [
            { accountId: 99, amountFen: 1 },
            { accountId: CASH, amountFen: -1 },
          ],
          accounts,
        ),
      ),
    ).toBe(LedgerErrorCode.AccountNotFound);
  });
});

describe('consumptionEntries', () => {
  it('draws a covered charge from the balance', () => {
    const p = account({ balanceFen: 500 });
    expect(consumptionEntries(p, arrearsOf(p), REVENUE, 200)).toEqual([
      { accountId: REVENUE, amountFen: 200 },
      { accountId: 10, amountFen: -200 },
    ]);
  });

  it('takes the balance to zero and books the shortfall as arrears, never a negative balance', () => {
    const p = account({ balanceFen: 150 });
    const entries = consumptionEntries(p, arrearsOf(p), REVENUE, 200);
    expect(entries).toEqual([
      { accountId: REVENUE, amountFen: 200 },
      { accountId: 10, amountFen: -150 },
      { accountId: 11, amountFen: -50 },
    ]);
    expect(sum(entries)).toBe(0);
  });

  it('books all of it as arrears on an empty account', () => {
    const p = account({ balanceFen: 0 });
    expect(consumptionEntries(p, arrearsOf(p), REVENUE, 80)).toEqual([
      { accountId: REVENUE, amountFen: 80 },
      { accountId: 11, amountFen: -80 },
    ]);
  });

  it('credits a negative amendment back, settling arrears first', () => {
    const p = account({ balanceFen: 0 });
    expect(consumptionEntries(p, arrearsOf(p, -30), REVENUE, -50)).toEqual([
      { accountId: REVENUE, amountFen: -50 },
      { accountId: 11, amountFen: 30 },
      { accountId: 10, amountFen: 20 },
    ]);
  });
});

describe('creditEntries (recharge)', () => {
  it('settles arrears first and puts the rest on the balance', () => {
    const p = account();
    expect(creditEntries(p, arrearsOf(p, -40), CASH, 100)).toEqual([
      { accountId: CASH, amountFen: -100 },
      { accountId: 11, amountFen: 40 },
      { accountId: 10, amountFen: 60 },
    ]);
  });

  it('pays part of the arrears when it is smaller than they are', () => {
    const p = account();
    expect(creditEntries(p, arrearsOf(p, -400), CASH, 100)).toEqual([
      { accountId: CASH, amountFen: -100 },
      { accountId: 11, amountFen: 100 },
    ]);
  });
});

describe('refundEntries', () => {
  it.each([0])('refuses a refund when the balance is %i (not above 0)', (balanceFen) => {
    expect(codeOf(() => refundEntries(account({ balanceFen }), CASH, undefined))).toBe(
      LedgerErrorCode.RefundNotAllowed,
    );
  });

  it('refunds the whole balance unless told an amount', () => {
    expect(refundEntries(account({ balanceFen: 321 }), CASH, undefined)[0].amountFen).toBe(-321);
  });
});

describe('transferEntries', () => {
  const group = account({ id: 20, kind: 'group', balanceFen: 100 });
  const sub = account({ id: 30, kind: 'group_sub', parentId: 20 });
  const stranger = account({ id: 40, kind: 'group_sub', parentId: 99 });

  it('moves balance from a group to its sub-account and back', () => {
    expect(transferEntries(group, sub, 70)).toEqual([
      { accountId: 20, amountFen: -70 },
      { accountId: 30, amountFen: 70 },
    ]);
    expect(transferEntries(sub, group, 5)).toEqual([
      { accountId: 30, amountFen: -5 },
      { accountId: 20, amountFen: 5 },
    ]);
  });

  it("refuses another group's sub-account", () => {
    expect(codeOf(() => transferEntries(group, stranger, 1))).toBe(LedgerErrorCode.NotSubAccount);
  });
});

describe('blockedReason', () => {
  it.each([
    [{ frozen: true, balanceFen: 1000, arrearsFen: 0 }, 'frozen'],
    [{ frozen: false, balanceFen: 0, arrearsFen: 1 }, 'arrears'],
    [{ frozen: false, balanceFen: 99, arrearsFen: 0 }, 'belowMinimum'],
    [{ frozen: false, balanceFen: 100, arrearsFen: 0 }, undefined],
  ])('%j with a minimum of 100 -> %s', (state, reason) => {
    expect(blockedReason(state, 100)).toBe(reason);
  });
});

describe('LedgerException.statusOf', () => {
  it('maps every code', () => {
    for (const code of Object.values(LedgerErrorCode))
      expect([400, 404, 409, 422]).toContain(LedgerException.statusOf(code));
  });
});
