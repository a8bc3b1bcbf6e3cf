import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { dropDatabase, ensureDatabase, withDatabase } from './admin';
import { createDataSource } from './data-source.factory';
import { pgPoolOf } from './pg-pool';
import { PreparedStatement } from './prepared-statement';

// This library sits below the testing library, so it makes its own throwaway database.
const baseUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/voltdepot';
const name = `vd_t_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;

const insert = new PreparedStatement<{ id: number }>(
  'test.prepared-insert',
  `INSERT INTO ps_probe (id, v) SELECT * FROM unnest($1::int[], $2::text[]) RETURNING id`,
);
const rename = new PreparedStatement<{ id: number; v: string }>(
  'test.prepared-rename',
  `UPDATE ps_probe SET v = $2 WHERE id = ANY($1::int[]) RETURNING id, v`,
);
const probe = new PreparedStatement<{ id: number; v: string }>(
  'test.prepared-probe',
  `SELECT id, v FROM ps_probe ORDER BY id`,
);

describe('PreparedStatement on PostgreSQL', () => {
  const db: { dataSource: DataSource } = {} as never;

  beforeAll(async () => {
    await ensureDatabase(withDatabase(baseUrl, name));
    db.dataSource = createDataSource({
      url: withDatabase(baseUrl, name),
      poolSize: 2,
      applicationName: name,
    });
    await db.dataSource.initialize();
    await db.dataSource.query(`CREATE TABLE ps_probe (id int PRIMARY KEY, v text NOT NULL)`);
  });
  afterAll(async () => {
    if (db.dataSource?.isInitialized) await db.dataSource.destroy();
    await dropDatabase(baseUrl, name);
  });
  beforeEach(() => db.dataSource.query(`TRUNCATE ps_probe`));

  it('runs on a pool connection, answers rows (of an UPDATE too) and leaves no connection in a transaction', async () => {
    const { manager } = db.dataSource;
    expect(
      await insert.run(manager, [
        [1, 2],
        ['a', 'b'],
      ]),
    ).toEqual([{ id: 1 }, { id: 2 }]);
    // Ten more runs, two connections in the pool: still only those connections' own preparations.
    for (let i = 3; i < 13; i++) await insert.run(manager, [[i], [`v${i}`]]);
    expect(await rename.run(manager, [[1, 2], 'z'])).toEqual([
      { id: 1, v: 'z' },
      { id: 2, v: 'z' },
    ]);
    const active: { n: number }[] = await db.dataSource.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND state LIKE 'idle in transaction%'`,
      [name],
    );
    expect(active[0].n).toBe(0);
    expect((await probe.run(manager, [])).length).toBe(12);
  });

  it('is parsed once per connection and run from there on', async () => {
    // pg_prepared_statements lists the asking session's own statements (this transaction's connection).
    const runsOfInsert = async (manager: typeof db.dataSource.manager) =>
      (
        (await manager.query(
          `SELECT statement, generic_plans + custom_plans AS runs FROM pg_prepared_statements WHERE name = $1`,
          [insert.name],
        )) as { statement: string; runs: string }[]
      ).map((row) => ({ ...row, runs: Number(row.runs) }));
    const [before, after] = await db.dataSource.transaction(async (manager) => {
      await insert.run(manager, [[30], ['p']]);
      const first = await runsOfInsert(manager);
      for (let i = 31; i < 36; i++) await insert.run(manager, [[i], ['p']]);
      return [first, await runsOfInsert(manager)];
    });
    expect(before).toEqual([{ statement: insert.text, runs: expect.any(Number) }]);
    expect(after).toEqual([{ statement: insert.text, runs: before[0].runs + 5 }]);
  });

  it("runs on a transaction's own connection: rolled back with it, seen inside it", async () => {
    await expect(
      db.dataSource.transaction(async (manager) => {
        await insert.run(manager, [[20], ['in-tx']]);
        // The same transaction sees its row; another connection does not yet.
        expect(await probe.run(manager, [])).toEqual([{ id: 20, v: 'in-tx' }]);
        expect(await probe.run(db.dataSource.manager, [])).toEqual([]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await probe.run(db.dataSource.manager, [])).toEqual([]);
  });

  it('reports a failing run as PostgreSQL does and leaves the connection usable', async () => {
    await insert.run(db.dataSource.manager, [[1], ['a']]);
    await expect(insert.run(db.dataSource.manager, [[1], ['again']])).rejects.toMatchObject({
      code: '23505',
    });
    // Both pool connections still work, with the statement still prepared on them.
    await Promise.all([
      insert.run(db.dataSource.manager, [[2], ['b']]),
      insert.run(db.dataSource.manager, [[3], ['c']]),
    ]);
    expect((await probe.run(db.dataSource.manager, [])).map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it('refuses one name for two texts', () => {
    expect(() => new PreparedStatement('test.prepared-probe', 'SELECT 1')).toThrow(
      'prepared statement "test.prepared-probe" defined twice',
    );
    // The same text again is the same statement (a module loaded twice).
    expect(() => new PreparedStatement('test.prepared-probe', probe.text)).not.toThrow();
  });

  it('needs a connected data source, and says so', async () => {
    const idle = createDataSource({ url: withDatabase(baseUrl, name), poolSize: 1, applicationName: name });
    const message = 'a connected PostgreSQL data source is needed (its node-postgres pool was not found)';
    expect(() => pgPoolOf(idle)).toThrow(message);
    await expect(probe.run(idle.manager, [])).rejects.toThrow(message);
    // Connected, the pool it gives is the data source's own: a statement list gives one result each.
    const client = await pgPoolOf(db.dataSource).connect();
    try {
      const results = (await client.query('SELECT 1 AS a; SELECT 2 AS b')) as { rows: unknown[] }[];
      expect(results.map((r) => r.rows)).toEqual([[{ a: 1 }], [{ b: 2 }]]);
    } finally {
      client.release();
    }
  });
});
