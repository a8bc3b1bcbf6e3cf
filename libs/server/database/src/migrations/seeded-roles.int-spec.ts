import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { SEEDED_ROLES } from '@voltdepot/shared-contracts';
import { dropDatabase, ensureDatabase, migrateDatabase, withDatabase } from '../index';

const BASE_URL = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

// The console shows a built-in role in the user's language while its stored name and description are
// the seeded ones (SEEDED_ROLES); a seed that differs would show its English text in the Chinese console.
describe('seeded roles (real PostgreSQL, all migrations)', () => {
  const name = `vd_t_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
  const url = withDatabase(BASE_URL, name);
  let client: Client;

  beforeAll(async () => {
    await ensureDatabase(url);
    await migrateDatabase(url, 'seeded-roles-test');
    client = new Client({ connectionString: url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await dropDatabase(BASE_URL, name);
  });

  it('are exactly the built-in roles, with the seeded name and description', async () => {
    const { rows } = await client.query<{ code: string; name: string; description: string }>(
      `SELECT code, name, description FROM sys_role WHERE builtin ORDER BY code`,
    );
    const listed = Object.entries(SEEDED_ROLES)
      .map(([code, seed]) => ({ code, name: seed.name, description: seed.description }))
      .sort((a, b) => a.code.localeCompare(b.code));
    expect(rows).toEqual(listed);
  });
});
