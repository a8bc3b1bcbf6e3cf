import { IcCardRecords1764210000050 } from './1764210000050-iccard-records';
import { migratedDatabase, type MigratedDatabase } from './fixtures/migrated-database';

describe('ledger_account_v publishes the arrears account (real PostgreSQL, all migrations)', () => {
  const migration = new IcCardRecords1764210000050();
  let db: MigratedDatabase;
  const columns = async () =>
    (
      await db.q(
        `SELECT column_name FROM information_schema.columns WHERE table_name = 'ledger_account_v' ORDER BY ordinal_position`,
      )
    ).map((r) => String(r['column_name']));
  const indexed = async () =>
    (await db.q(`SELECT 1 FROM pg_indexes WHERE indexname = 'ic_card_action_ledger_transaction_idx'`)).length;

  beforeAll(async () => {
    db = await migratedDatabase('iccard-records-test');
  }, 60_000);

  afterAll(() => db?.close());

  it("answers each customer account's arrears account id, after the view's first columns", async () => {
    const [account] = await db.q(
      `INSERT INTO ledger_account (kind, name) VALUES ('personal', 'P') RETURNING id`,
    );
    const [arrears] = await db.q(
      `INSERT INTO ledger_account (kind, name, parent_id) VALUES ('arrears', 'A', $1) RETURNING id`,
      [account.id],
    );
    const [row] = await db.q(`SELECT arrears_account_id FROM ledger_account_v WHERE id = $1`, [account.id]);
    expect(row.arrears_account_id).toBe(arrears.id);
    expect(await columns()).toEqual([
      'id',
      'kind',
      'parent_id',
      'customer_id',
      'name',
      'balance_fen',
      'frozen',
      'arrears_fen',
      'arrears_account_id',
    ]);
    expect(await indexed()).toBe(1);
  });

  it('goes down to the view as it was and up again', async () => {
    await migration.down(db.runner);
    expect(await columns()).not.toContain('arrears_account_id');
    expect(await indexed()).toBe(0);
    await migration.up(db.runner);
    expect(await columns()).toContain('arrears_account_id');
    expect(await indexed()).toBe(1);
  });
});
