import { randomUUID } from 'node:crypto';
import { createTestDatabase, insertPile, type TestDatabase } from '@voltdepot/server-testing';
import { ReservationRepository } from './reservation.repository';

/**
 * Exports read reservations in keyset batches: every row exactly once, newest first, the same order as
 * the list — also across rows with the same instant at a batch boundary, and when rows arrive while
 * the export runs.
 */
let db: TestDatabase;
let repository: ReservationRepository;
const everyone = { pathPatterns: ['%'] };
const cp = `RB-${randomUUID().slice(0, 6)}`;
const base = Date.parse('2026-11-20T10:00:00Z');

async function reserve(reservationId: number, at: number): Promise<string> {
  const id = randomUUID();
  await db.dataSource.query(
    `INSERT INTO pile_command (id, charge_point_id, action, params, status, response, replica_id, requested_at, completed_at)
     VALUES ($1, $2, 'ReserveNow', $3::jsonb, 'completed', '{"status":"Accepted"}'::jsonb, 'gw-1', $4, $4)`,
    [
      id,
      cp,
      JSON.stringify({
        connectorId: 1,
        expiryDate: new Date(at + 3_600_000).toISOString(),
        idTag: `CARD-${reservationId}`,
        reservationId,
      }),
      new Date(at).toISOString(),
    ],
  );
  return id;
}

beforeAll(async () => {
  db = await createTestDatabase();
  repository = new ReservationRepository(db.dataSource);
  await insertPile(db.dataSource, { organization: 'HF', number: cp, charge_point_id: cp });
  // Seven reservations, three of them at the very same instant.
  for (const [n, minutes] of [
    [1, 0],
    [2, 5],
    [3, 5],
    [4, 5],
    [5, 9],
    [6, 12],
    [7, 20],
  ])
    await reserve(n, base + minutes * 60_000);
}, 60_000);

afterAll(() => db?.drop());

async function exported(batchSize: number, limit: number, during?: () => Promise<unknown>) {
  const rows: string[] = [];
  for await (const batch of repository.batches({}, everyone, batchSize, limit)) {
    rows.push(...batch.map((r) => r.id));
    if (during) await during();
  }
  return rows;
}

it('reads every reservation once, in the order of the list, across ties at batch boundaries', async () => {
  const listed = (await repository.page({}, everyone, 1, 100)).list.map((r) => r.id);
  expect(listed).toHaveLength(7);
  expect(await exported(2, 100)).toEqual(listed);
  expect(await exported(3, 100)).toEqual(listed);
  expect(await exported(2, 5)).toEqual(listed.slice(0, 5));
});

it('is not shifted by reservations arriving while it runs', async () => {
  const before = (await repository.page({}, everyone, 1, 100)).list.map((r) => r.id);
  let n = 100;
  // After each batch a newer reservation arrives: with OFFSET paging every later batch would repeat a row.
  const rows = await exported(2, 100, () => reserve(n++, Date.now()));
  expect(rows).toEqual(before);
});
