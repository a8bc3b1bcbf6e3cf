import { PilePasswordRehash1764150000000 } from './1764150000000-pile-password-rehash';
import { migratedDatabase, type MigratedDatabase } from './fixtures/migrated-database';

describe('pile_registry.password_rehashed_from and gateway_register_pile (real PostgreSQL, all migrations)', () => {
  const migration = new PilePasswordRehash1764150000000();
  let db: MigratedDatabase;
  const q = (sql: string, params?: unknown[]) => db.q(sql, params);
  const row = async (id: string) =>
    (
      await q(
        'SELECT state, password_hash, password_rehashed_from FROM pile_registry WHERE charge_point_id = $1',
        [id],
      )
    )[0];

  beforeAll(async () => {
    db = await migratedDatabase('pile-password-rehash-test');
  }, 60_000);

  afterAll(() => db?.close());

  it('goes down and up again, keeping the registry', async () => {
    await q(`SELECT gateway_register_pile('MIG-1', 'active', '$argon2id$old')`);
    await migration.down(db.runner);
    await q(`SELECT gateway_register_pile('MIG-1', 'pending', '$argon2id$old')`);
    await migration.up(db.runner);
    expect(await row('MIG-1')).toEqual({
      state: 'pending',
      password_hash: '$argon2id$old',
      password_rehashed_from: null,
    });
  });

  it('keeps a hash the gateway stored again when handed the one it replaced, and nothing else', async () => {
    await q(`SELECT gateway_register_pile('MIG-2', 'active', 'old')`);
    await q(
      `UPDATE pile_registry SET password_hash = 'new', password_rehashed_from = password_hash WHERE charge_point_id = 'MIG-2'`,
    );
    await q(`SELECT gateway_register_pile('MIG-2', 'pending', 'old')`);
    expect(await row('MIG-2')).toEqual({
      state: 'pending',
      password_hash: 'new',
      password_rehashed_from: 'old',
    });
    // No password from the assets is no password, whatever the gateway re-stored.
    await q(`SELECT gateway_register_pile('MIG-2', 'active', NULL)`);
    expect(await row('MIG-2')).toEqual({
      state: 'active',
      password_hash: null,
      password_rehashed_from: null,
    });
    await q(`SELECT gateway_register_pile('MIG-2', 'active', 'other')`);
    await q(`SELECT gateway_retire_pile('MIG-2')`);
    expect(await row('MIG-2')).toEqual({
      state: 'disabled',
      password_hash: null,
      password_rehashed_from: null,
    });
  });
});
