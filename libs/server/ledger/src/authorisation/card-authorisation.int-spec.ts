/**
 * The ledger announces whether a prepaid card may charge (`ledger.card-authorisation.changed`) on real
 * PostgreSQL: in the transaction of the change (a rolled-back posting announces nothing), only when the
 * state changes, with a sequence that per card rises in commit order even under concurrent postings.
 */
import { createTestDatabase, type TestDatabase } from '@voltdepot/server-testing';
import {
  CardAuthorisationChanged,
  cardAuthorisationChangedV1Schema,
  type CardAuthorisationChangedV1,
} from '@voltdepot/shared-events';
import type { EntityManager } from 'typeorm';
import type { LockedAccount, PlannedEntry } from '../ledger-postings';
import { LedgerRepository } from '../ledger.repository';
import { LedgerService } from '../ledger.service';
import { CardAuthorisationWriter } from './card-authorisation.writer';

const MINIMUM = 100;
let db: TestDatabase;
let ledger: LedgerService;
let nudges = 0;
let n = 0;
const key = (what: string) => `${what}-${++n}`;

beforeAll(async () => {
  db = await createTestDatabase();
  const repository = new LedgerRepository(
    db.dataSource,
    new CardAuthorisationWriter(MINIMUM),
    () => nudges++,
  );
  ledger = new LedgerService(repository, { minimumBalanceFen: MINIMUM });
});
afterAll(() => db?.drop());

/** The card's announcements in the outbox, in sequence order (each checked against the contract). */
async function announced(idTag: string): Promise<CardAuthorisationChangedV1[]> {
  const rows: { topic: string; key: string; version: number; payload: CardAuthorisationChangedV1 }[] =
    await db.dataSource.query(
      `SELECT topic, key, version, payload FROM outbox_event WHERE type = $1 AND key = $2
        ORDER BY (payload->>'sequence')::bigint`,
      [CardAuthorisationChanged.type, idTag],
    );
  for (const row of rows) {
    expect(row).toMatchObject({ topic: CardAuthorisationChanged.topic, version: 1 });
    cardAuthorisationChangedV1Schema.parse(row.payload);
  }
  return rows.map((r) => r.payload);
}
const states = async (idTag: string) =>
  (await announced(idTag)).map((p) => (p.blocked ? p.reason : 'ok') + (p.accountId ? '' : ' (unlinked)'));

it('announces a card when it is linked, and each change of its account: postings, freeze, unlink', async () => {
  const a = await ledger.openAccount({ kind: 'personal', name: 'Wang Wu' });
  await ledger.linkCard('AUTH-1', a.id); // empty: below the minimum
  const recharge = (fen: number) =>
    ledger.recharge({ idempotencyKey: key('r'), accountId: a.id, amountFen: fen });
  const consume = (fen: number) =>
    ledger.consume({ idempotencyKey: key('c'), kind: 'consumption', accountId: a.id, amountFen: fen });
  await recharge(500); // ok
  await consume(300); // 200 left: still ok, nothing announced
  await consume(150); // 50: below the minimum
  await expect(ledger.refund({ idempotencyKey: key('f'), accountId: a.id, amountFen: 60 })).rejects.toThrow();
  await consume(80); // 30 arrears: the reason changes
  await recharge(30); // arrears settled, balance 0: below the minimum again
  await ledger.setFrozen(a.id, true); // frozen
  await ledger.setFrozen(a.id, true); // unchanged: nothing
  await recharge(1_000).catch(() => undefined); // refused on a frozen account
  await ledger.setFrozen(a.id, false); // below the minimum
  await ledger.unlinkCard('AUTH-1');
  expect(await states('AUTH-1')).toEqual([
    'belowMinimum',
    'ok',
    'belowMinimum',
    'arrears',
    'belowMinimum',
    'frozen',
    'belowMinimum',
    'ok (unlinked)',
  ]);
  const [first] = await announced('AUTH-1');
  expect(first).toEqual({
    idTag: 'AUTH-1',
    accountId: a.id,
    blocked: true,
    reason: 'belowMinimum',
    sequence: expect.any(Number),
    changedAt: expect.any(String),
  });
  expect(nudges).toBeGreaterThan(0);
});

it('announces every card on the account, and a card moved to another account with its new account', async () => {
  const a = await ledger.openAccount({ kind: 'personal', name: 'Zhao Liu' });
  const b = await ledger.openAccount({ kind: 'personal', name: 'Sun Qi' });
  await ledger.recharge({ idempotencyKey: key('r'), accountId: b.id, amountFen: 1_000 });
  await ledger.linkCard('AUTH-2A', a.id);
  await ledger.linkCard('AUTH-2B', a.id);
  await ledger.recharge({ idempotencyKey: key('r'), accountId: a.id, amountFen: 500 });
  expect(await states('AUTH-2A')).toEqual(['belowMinimum', 'ok']);
  expect(await states('AUTH-2B')).toEqual(['belowMinimum', 'ok']);
  await ledger.setFrozen(a.id, true);
  await ledger.linkCard('AUTH-2B', b.id); // moved to an account that may charge
  expect(await states('AUTH-2B')).toEqual(['belowMinimum', 'ok', 'frozen', 'ok']);
  expect((await announced('AUTH-2B')).at(-1)?.accountId).toBe(b.id);
});

it('announces nothing when the posting rolls back (the event commits with the change)', async () => {
  class FailingAfterAnnounce extends CardAuthorisationWriter {
    override async afterPosting(
      m: EntityManager,
      locked: ReadonlyMap<number, LockedAccount>,
      entries: readonly PlannedEntry[],
    ): Promise<number> {
      const added = await super.afterPosting(m, locked, entries);
      if (added) throw new Error('killed after announcing');
      return added;
    }
  }
  const failing = new LedgerService(new LedgerRepository(db.dataSource, new FailingAfterAnnounce(MINIMUM)), {
    minimumBalanceFen: MINIMUM,
  });
  const a = await ledger.openAccount({ kind: 'personal', name: 'Zhou Ba' });
  await ledger.linkCard('AUTH-3', a.id);
  await expect(
    failing.recharge({ idempotencyKey: key('r'), accountId: a.id, amountFen: 500 }),
  ).rejects.toThrow('killed after announcing');
  expect((await ledger.account(a.id)).balanceFen).toBe(0);
  expect(await states('AUTH-3')).toEqual(['belowMinimum']);
});

it('under concurrent postings, the card state with the highest sequence is the account state', async () => {
  const a = await ledger.openAccount({ kind: 'personal', name: 'Hot' });
  await ledger.linkCard('AUTH-HOT', a.id);
  const work = [
    ...Array.from(
      { length: 60 },
      (_, i) => () =>
        ledger.consume({
          idempotencyKey: `hot-c-${i}`,
          kind: 'consumption',
          accountId: a.id,
          amountFen: 90 + i,
        }),
    ),
    ...Array.from(
      { length: 30 },
      (_, i) => () => ledger.recharge({ idempotencyKey: `hot-r-${i}`, accountId: a.id, amountFen: 150 + i }),
    ),
  ].sort(() => Math.random() - 0.5);
  await Promise.all(work.map((w) => w()));
  const events = await announced('AUTH-HOT');
  expect(events.length).toBeGreaterThan(1);
  const latest = events.at(-1)!;
  expect(latest.blocked ? latest.reason : undefined).toBe(await ledger.blockedReason(a.id));
  // Consecutive announcements differ: only changes are announced, in the order they were committed.
  for (let i = 1; i < events.length; i++)
    expect(`${events[i].blocked}/${events[i].reason}`).not.toBe(
      `${events[i - 1].blocked}/${events[i - 1].reason}`,
    );
}, 60_000);
