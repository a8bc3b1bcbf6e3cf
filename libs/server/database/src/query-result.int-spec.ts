import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { dropDatabase, ensureDatabase, withDatabase } from './admin';
import { createDataSource } from './data-source.factory';
import { affectedRows, returnedRows } from './query-result';

// This library sits below the testing library, so it makes its own throwaway database.
const baseUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/voltdepot';
const name = `vd_t_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;

/** The shapes TypeORM's PostgreSQL driver really answers with, read through the helpers. */
describe('query results from PostgreSQL', () => {
  const db: { dataSource: DataSource } = {} as never;

  beforeAll(async () => {
    await ensureDatabase(withDatabase(baseUrl, name));
    db.dataSource = createDataSource({ url: withDatabase(baseUrl, name), poolSize: 2 });
    await db.dataSource.initialize();
    await db.dataSource.query(`CREATE TABLE qr_probe (id int PRIMARY KEY, v text)`);
  });
  afterAll(async () => {
    if (db.dataSource?.isInitialized) await db.dataSource.destroy();
    await dropDatabase(baseUrl, name);
  });

  beforeEach(async () => {
    await db.dataSource.query(`TRUNCATE qr_probe`);
    await db.dataSource.query(`INSERT INTO qr_probe (id, v) VALUES (1, 'a'), (2, 'b'), (3, 'c')`);
  });

  it.each([
    ['SELECT', `SELECT id FROM qr_probe WHERE id <= 2 ORDER BY id`, [{ id: 1 }, { id: 2 }]],
    ['INSERT ... RETURNING', `INSERT INTO qr_probe (id, v) VALUES (9, 'z') RETURNING id`, [{ id: 9 }]],
    ['UPDATE ... RETURNING', `UPDATE qr_probe SET v = 'x' WHERE id = 2 RETURNING id`, [{ id: 2 }]],
    ['DELETE ... RETURNING', `DELETE FROM qr_probe WHERE id >= 2 RETURNING id`, [{ id: 2 }, { id: 3 }]],
    [
      'WITH ... DELETE ... RETURNING',
      `WITH ins AS (INSERT INTO qr_probe (id, v) VALUES (7, 'q')) DELETE FROM qr_probe WHERE id = 1 RETURNING id`,
      [{ id: 1 }],
    ],
    ['DELETE matching nothing', `DELETE FROM qr_probe WHERE id = 42 RETURNING id`, []],
  ])('%s', async (_name, sql, rows) => {
    const result = await db.dataSource.query(sql);
    expect(returnedRows<{ id: number }>(result).sort((a, b) => a.id - b.id)).toEqual(rows);
  });

  it('counts the rows an UPDATE or DELETE without RETURNING affected', async () => {
    expect(affectedRows(await db.dataSource.query(`UPDATE qr_probe SET v = 'y'`))).toBe(3);
    expect(affectedRows(await db.dataSource.query(`DELETE FROM qr_probe WHERE id = 1`))).toBe(1);
  });
});
