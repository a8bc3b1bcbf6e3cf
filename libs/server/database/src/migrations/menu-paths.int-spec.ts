import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { dropDatabase, ensureDatabase, migrateDatabase, withDatabase } from '../index';

const BASE_URL = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

// The console renders a menu only when its path is one of its routes; routes are codes with ':' as '/'.
describe('seeded menu resources (real PostgreSQL, all migrations)', () => {
  const name = `vd_t_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
  const url = withDatabase(BASE_URL, name);
  let client: Client;

  beforeAll(async () => {
    await ensureDatabase(url);
    await migrateDatabase(url, 'menu-paths-test');
    client = new Client({ connectionString: url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await dropDatabase(BASE_URL, name);
  });

  it('every menu has an absolute path without a colon', async () => {
    const { rows } = await client.query<{ code: string; path: string | null }>(
      `SELECT code, path FROM sys_resource WHERE type = 'menu' ORDER BY code`,
    );
    expect(rows.length).toBeGreaterThan(100);
    expect(
      rows.filter((row) => row.path === null || !row.path.startsWith('/') || row.path.includes(':')),
    ).toEqual([]);
  });

  it('menus three levels deep take their code with every colon as a slash', async () => {
    const { rows } = await client.query<{ path: string }>(
      `SELECT path FROM sys_resource WHERE code = 'appManage:reconciliation:depositRefundDetail'`,
    );
    expect(rows).toEqual([{ path: '/appManage/reconciliation/depositRefundDetail' }]);
  });
});
