import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { SEEDED_RESOURCE_CODES } from '@voltdepot/shared-contracts';
import { dropDatabase, ensureDatabase, migrateDatabase, withDatabase } from '../index';

const BASE_URL = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

// The console labels seeded resources by this list (both languages); a code missing from it would
// show its stored English name in the Chinese console.
describe('seeded resources (real PostgreSQL, all migrations)', () => {
  const name = `vd_t_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
  const url = withDatabase(BASE_URL, name);
  let client: Client;

  beforeAll(async () => {
    await ensureDatabase(url);
    await migrateDatabase(url, 'seeded-resources-test');
    client = new Client({ connectionString: url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await dropDatabase(BASE_URL, name);
  });

  it('are exactly the codes of SEEDED_RESOURCE_CODES', async () => {
    const { rows } = await client.query<{ code: string }>(`SELECT code FROM sys_resource ORDER BY code`);
    const seeded = rows.map((row) => row.code);
    const listed = new Set<string>(SEEDED_RESOURCE_CODES);
    expect(seeded.filter((code) => !listed.has(code))).toEqual([]);
    expect([...listed].filter((code) => !seeded.includes(code))).toEqual([]);
  });
});
