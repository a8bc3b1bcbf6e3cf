import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { dropDatabase, ensureDatabase, migrateDatabase, withDatabase } from '../index';

const BASE_URL = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const SCREENS = ['msg:config', 'msg:template', 'msg:group', 'msg:event', 'msg:alerts'];
const BUTTONS = SCREENS.flatMap((menu) => ['add', 'edit', 'delete'].map((verb) => `${menu}:${verb}`)).sort();

// The console guards the message-centre buttons with these codes (features/messages/permissions.ts).
describe('message-centre buttons (real PostgreSQL, all migrations)', () => {
  const name = `vd_t_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
  const url = withDatabase(BASE_URL, name);
  let client: Client;

  beforeAll(async () => {
    await ensureDatabase(url);
    await migrateDatabase(url, 'msg-resources-test');
    client = new Client({ connectionString: url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await dropDatabase(BASE_URL, name);
  });

  it('seeds add, edit and delete buttons under each msg menu', async () => {
    const { rows } = await client.query<{ code: string; menu: string; type: string }>(
      `SELECT b.code, m.code AS menu, b.type
         FROM sys_resource b JOIN sys_resource m ON m.id = b.parent_id
        WHERE b.code = ANY($1::text[]) ORDER BY b.code`,
      [BUTTONS],
    );
    expect(rows.map((r) => r.code)).toEqual(BUTTONS);
    for (const row of rows) {
      expect(row.type).toBe('button');
      expect(row.code.startsWith(`${row.menu}:`)).toBe(true);
    }
  });

  it('grants them to the roles holding the menus (administrator, operator staff) and to nobody else', async () => {
    const { rows } = await client.query<{ role: string; codes: string[] }>(
      `SELECT r.code AS role, array_agg(s.code ORDER BY s.code) AS codes
         FROM sys_role r
         JOIN sys_role_resource rr ON rr.role_id = r.id
         JOIN sys_resource s ON s.id = rr.resource_id AND s.code = ANY($1::text[])
        GROUP BY r.code ORDER BY r.code`,
      [BUTTONS],
    );
    expect(rows).toEqual([
      { role: 'admin', codes: BUTTONS },
      { role: 'operator', codes: BUTTONS },
    ]);
  });
});
