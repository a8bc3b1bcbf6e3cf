import { randomUUID } from 'node:crypto';
import { createTestDatabase, insertPile, type TestDatabase } from '@voltdepot/server-testing';
import { OrderOperationsRepository } from './order-operations.repository';

/**
 * The order operation log's export reads in keyset batches: every action exactly once, in the order of
 * the list, across actions at the same instant at a batch boundary, and while new actions arrive.
 */
let db: TestDatabase;
let repository: OrderOperationsRepository;
const everyone = { pathPatterns: ['%'] };
const cp = `OB-${randomUUID().slice(0, 6)}`;
const base = Date.parse('2026-11-21T01:00:00Z');
let tx = 1;

async function review(at: number): Promise<void> {
  const [{ id }] = await db.dataSource.query(
    `INSERT INTO charging_order (order_no, charge_point_id, connector_id, transaction_id, stopped_at, meter_stop_wh,
                                 end_reason, stop_kind, pay_status, abnormal_reasons, total_fen)
     VALUES ($1, $2, 1, $3, $4, 1000, 'Local', 'normal', 0, '{beyondCapacity}', 100) RETURNING id`,
    [`OB${randomUUID().replace(/-/g, '').slice(0, 18)}`, cp, tx++, new Date(at).toISOString()],
  );
  await db.dataSource.query(
    `INSERT INTO charging_order_review (order_id, decision, reason, reviewer_name, reviewed_at)
     VALUES ($1, 'approve', 'ok', 'alice', $2)`,
    [id, new Date(at).toISOString()],
  );
}

beforeAll(async () => {
  db = await createTestDatabase();
  repository = new OrderOperationsRepository(db.dataSource);
  await insertPile(db.dataSource, { organization: 'HF', number: cp, charge_point_id: cp });
  // Seven reviews, three of them at the very same instant.
  for (const minutes of [0, 5, 5, 5, 9, 12, 20]) await review(base + minutes * 60_000);
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

it('reads every action once, in the order of the list, across ties at batch boundaries', async () => {
  const listed = (await repository.page({}, everyone, 1, 100)).list.map((r) => r.id);
  expect(listed).toHaveLength(7);
  expect(await exported(2, 100)).toEqual(listed);
  expect(await exported(3, 100)).toEqual(listed);
  expect(await exported(2, 5)).toEqual(listed.slice(0, 5));
});

it('is not shifted by actions arriving while it runs', async () => {
  const before = (await repository.page({}, everyone, 1, 100)).list.map((r) => r.id);
  // After each batch a newer review arrives: with OFFSET pages every later batch would repeat a row.
  const rows = await exported(2, 100, () => review(Date.now()));
  expect(rows).toEqual(before);
});
