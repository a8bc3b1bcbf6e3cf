import { createTestDatabase, type TestDatabase } from '@voltdepot/server-testing';
import { IdTagRepository } from '../cards/id-tag.repository';
import { GatewayRegistryRepository } from './gateway-registry.repository';

/** The gateway's tables as the api writes them (real PostgreSQL, migrated). */
describe('GatewayRegistryRepository and IdTagRepository', () => {
  let db: TestDatabase;
  let registry: GatewayRegistryRepository;
  const idTags = new IdTagRepository();

  beforeAll(async () => {
    db = await createTestDatabase();
    registry = new GatewayRegistryRepository(db.dataSource);
  });
  afterAll(async () => {
    await db?.drop();
  });

  async function pile(chargePointId: string, hash: string | null): Promise<number> {
    const [row] = await db.dataSource.query(
      `INSERT INTO charging_pile (organization_id, name, number, charge_point_id, ocpp_password_hash, device_status, protocol_version)
       SELECT id, $1, $1, $1, $2, 50, 'ocpp1.6' FROM sys_organization WHERE code = 'ROOT' RETURNING id`,
      [chargePointId, hash],
    );
    return Number(row.id);
  }
  const registryRow = async (chargePointId: string) =>
    (
      await db.dataSource.query(
        'SELECT state, password_hash, updated_at FROM pile_registry WHERE charge_point_id = $1',
        [chargePointId],
      )
    )[0];

  it('copies a pile into the registry, changes its state, and retires it as a tombstone', async () => {
    const id = await pile('REG-1', '$argon2id$fake');
    await db.dataSource.transaction((m) => registry.syncPile(m, id, 'pending'));
    expect(await registryRow('REG-1')).toMatchObject({ state: 'pending', password_hash: '$argon2id$fake' });
    const before = (await registryRow('REG-1')).updated_at as Date;
    await db.dataSource.transaction((m) => registry.setStates(m, [id], 'active'));
    const after = await registryRow('REG-1');
    expect(after.state).toBe('active');
    expect((after.updated_at as Date).getTime()).toBeGreaterThan(before.getTime());
    await db.dataSource.transaction((m) => registry.retire(m, 'REG-1'));
    expect(await registryRow('REG-1')).toMatchObject({ state: 'disabled', password_hash: null });
  });

  it("a hash the gateway stored again in its current form survives the assets' re-registration of the old one", async () => {
    const id = await pile('REG-3', '$argon2id$old');
    await db.dataSource.transaction((m) => registry.syncPile(m, id, 'active'));
    // What the gateway does after verifying the pile (PileRegistryRepository.restorePasswordHash).
    await db.dataSource.query(
      `UPDATE pile_registry SET password_hash = 'hmac-new', password_rehashed_from = password_hash
        WHERE charge_point_id = 'REG-3' AND password_hash = '$argon2id$old'`,
    );
    await db.dataSource.transaction((m) => registry.syncPile(m, id, 'pending'));
    expect(await registryRow('REG-3')).toMatchObject({ state: 'pending', password_hash: 'hmac-new' });
    // A new password from the assets replaces it; a retired pile keeps nothing.
    await db.dataSource.query(`UPDATE charging_pile SET ocpp_password_hash = 'hmac-newer' WHERE id = $1`, [
      id,
    ]);
    await db.dataSource.transaction((m) => registry.syncPile(m, id, 'active'));
    expect(await registryRow('REG-3')).toMatchObject({ password_hash: 'hmac-newer' });
    await db.dataSource.transaction((m) => registry.retire(m, 'REG-3'));
    const [retired] = await db.dataSource.query(
      `SELECT password_hash, password_rehashed_from FROM pile_registry WHERE charge_point_id = 'REG-3'`,
    );
    expect(retired).toEqual({ password_hash: null, password_rehashed_from: null });
  });

  it('a rolled-back transaction leaves the registry untouched', async () => {
    const id = await pile('REG-2', '$argon2id$fake');
    await expect(
      db.dataSource.transaction(async (m) => {
        await registry.syncPile(m, id, 'active');
        throw new Error('rule broken after the write');
      }),
    ).rejects.toThrow('rule broken');
    expect(await registryRow('REG-2')).toBeUndefined();
  });

  it('lists unknown attempts per charge point, without those registered since', async () => {
    await db.dataSource.query(
      `INSERT INTO unknown_pile_attempt (charge_point_id, remote_address, attempts) VALUES
         ('UNK-1', '10.0.0.1', 2), ('UNK-1', '10.0.0.2', 1), ('REG-1', '10.0.0.3', 5)`,
    );
    const page = await registry.unknownPage(1, 10);
    expect(page.total).toBe(1);
    expect(page.list).toEqual([
      expect.objectContaining({
        chargePointId: 'UNK-1',
        attempts: 3,
        remoteAddresses: expect.arrayContaining(['10.0.0.1', '10.0.0.2']),
      }),
    ]);
    expect(await registry.hasUnknownAttempt('UNK-1')).toBe(true);
    await db.dataSource.transaction((m) => registry.forgetUnknown(m, 'UNK-1'));
    expect(await registry.hasUnknownAttempt('UNK-1')).toBe(false);
  });

  it('reads the newest unknown charge points up to a limit in one go (the export), registered ones left out', async () => {
    await db.dataSource.query(
      `INSERT INTO unknown_pile_attempt (charge_point_id, remote_address, last_seen_at)
       SELECT 'EXP-' || n, '10.2.0.' || n, '2025-01-01T00:00:00Z'::timestamptz + n * interval '1 minute'
         FROM generate_series(1, 5) n
       UNION ALL SELECT 'REG-1', '10.2.0.9', '2030-01-01T00:00:00Z'`,
    );
    const newest = await registry.unknownAttempts(3);
    expect(newest.map((a) => a.chargePointId)).toEqual(['EXP-5', 'EXP-4', 'EXP-3']);
    expect(newest[0]).toEqual({
      chargePointId: 'EXP-5',
      remoteAddresses: ['10.2.0.5'],
      attempts: 1,
      firstSeenAt: expect.any(String),
      lastSeenAt: '2025-01-01T00:05:00.000Z',
    });
    expect((await registry.unknownPage(1, 2)).list.map((a) => a.chargePointId)).toEqual(['EXP-5', 'EXP-4']);
    expect((await registry.unknownPage(2, 2)).list.map((a) => a.chargePointId)).toEqual(['EXP-3', 'EXP-2']);
  });

  it('writes id tags with status and expiry, and removes them', async () => {
    const expiry = '2030-01-01T00:00:00.000Z';
    await db.dataSource.transaction((m) => idTags.upsert(m, 'CARD-1', 'Accepted', expiry));
    await db.dataSource.transaction((m) => idTags.upsert(m, 'CARD-1', 'Blocked', expiry));
    const [row] = await db.dataSource.query('SELECT status, expiry_date FROM id_tag WHERE id_tag = $1', [
      'CARD-1',
    ]);
    expect(row.status).toBe('Blocked');
    expect((row.expiry_date as Date).toISOString()).toBe(expiry);
    await db.dataSource.transaction((m) => idTags.remove(m, 'CARD-1'));
    expect(await db.dataSource.query('SELECT 1 FROM id_tag WHERE id_tag = $1', ['CARD-1'])).toEqual([]);
  });
});
