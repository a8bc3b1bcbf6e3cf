import type { LockedAccount, PlannedEntry } from '../ledger-postings';
import { authorisationChanges, authorisationOf } from './card-authorisation';

const customer = (balanceFen: number, frozen = false): LockedAccount => ({
  id: 10,
  kind: 'personal',
  parentId: null,
  balanceFen,
  frozen,
});
const arrears = (balanceFen: number): LockedAccount => ({
  id: 11,
  kind: 'arrears',
  parentId: 10,
  balanceFen,
  frozen: false,
});
const revenue: LockedAccount = { id: 2, kind: 'revenue', parentId: null, balanceFen: 0, frozen: false };
const entry = (accountId: number, amountFen: number, before: number | null): PlannedEntry => ({
  accountId,
  amountFen,
  balanceBeforeFen: before,
  balanceAfterFen: before === null ? null : before + amountFen,
});
const locked = (...accounts: LockedAccount[]) => new Map(accounts.map((a) => [a.id, a]));

describe('authorisationOf', () => {
  it.each([
    [{ frozen: false, balanceFen: 100, arrearsFen: 0 }, 100, { blocked: false }],
    [{ frozen: false, balanceFen: 99, arrearsFen: 0 }, 100, { blocked: true, reason: 'belowMinimum' }],
    [{ frozen: false, balanceFen: 500, arrearsFen: 1 }, 100, { blocked: true, reason: 'arrears' }],
    [{ frozen: true, balanceFen: 500, arrearsFen: 0 }, 100, { blocked: true, reason: 'frozen' }],
    [{ frozen: false, balanceFen: 0, arrearsFen: 0 }, 0, { blocked: false }],
  ])('%j with minimum %d -> %j', (account, minimum, expected) => {
    expect(authorisationOf(account, minimum)).toEqual(expected);
  });
});

describe('authorisationChanges (what a posting announces)', () => {
  it('announces nothing when the state stays (a consumption leaving enough money)', () => {
    const changes = authorisationChanges(
      locked(customer(1_000), arrears(0), revenue),
      [entry(10, -300, 1_000), entry(2, 300, null)],
      100,
    );
    expect(changes.size).toBe(0);
  });

  it('announces blocked when a consumption takes the balance below the minimum', () => {
    const changes = authorisationChanges(
      locked(customer(1_000), arrears(0), revenue),
      [entry(10, -950, 1_000), entry(2, 950, null)],
      100,
    );
    expect([...changes]).toEqual([[10, { blocked: true, reason: 'belowMinimum' }]]);
  });

  it('announces the new reason when arrears are booked on an account already below the minimum', () => {
    const changes = authorisationChanges(
      locked(customer(50), arrears(0), revenue),
      [entry(10, -50, 50), entry(11, -200, 0), entry(2, 250, null)],
      100,
    );
    expect([...changes]).toEqual([[10, { blocked: true, reason: 'arrears' }]]);
  });

  it('announces unblocked when a recharge settles the arrears and leaves enough', () => {
    const changes = authorisationChanges(
      locked(customer(0), arrears(-200)),
      [entry(11, 200, -200), entry(10, 800, 0), entry(1, -1_000, null)],
      100,
    );
    expect([...changes]).toEqual([[10, { blocked: false }]]);
  });

  it('keeps a frozen account blocked whatever is posted', () => {
    const changes = authorisationChanges(
      locked(customer(0, true), arrears(0)),
      [entry(10, 5_000, 0), entry(1, -5_000, null)],
      100,
    );
    expect(changes.size).toBe(0);
  });

  it('announces each account of a transfer whose state changes', () => {
    const group: LockedAccount = { id: 20, kind: 'group', parentId: null, balanceFen: 150, frozen: false };
    const groupArrears: LockedAccount = {
      id: 21,
      kind: 'arrears',
      parentId: 20,
      balanceFen: 0,
      frozen: false,
    };
    const changes = authorisationChanges(
      locked(customer(0), arrears(0), group, groupArrears),
      [entry(20, -100, 150), entry(10, 100, 0)],
      100,
    );
    expect([...changes]).toEqual([
      [10, { blocked: false }],
      [20, { blocked: true, reason: 'belowMinimum' }],
    ]);
  });
});
