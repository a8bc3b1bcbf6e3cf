import { Pool } from 'pg';
import type { EntityManager } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@voltdepot/server-testing';
import { GroupCommit, ShardedGroupCommit, shardOf } from './group-commit';

let db: TestDatabase;
let observer: Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  await db.dataSource.query(
    `CREATE TABLE gc_item (id int PRIMARY KEY, v text NOT NULL CHECK (v <> 'poison'))`,
  );
  // A connection of its own: it sees only what has been committed.
  observer = new Pool({ connectionString: db.url, max: 1 });
});
afterAll(async () => {
  await observer.end();
  await db.drop();
});

type Item = { id: number; v: string };

function writer(
  options: { concurrency?: number; sleepS?: number; maxBatch?: number; transaction?: boolean } = {},
) {
  let inFlight = 0;
  const stats = { maxInFlight: 0, sizes: [] as number[] };
  const write = async (manager: EntityManager, items: Item[]) => {
    inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
    try {
      if (options.sleepS) await manager.query('SELECT pg_sleep($1)', [options.sleepS]);
      await manager.query('INSERT INTO gc_item (id, v) SELECT * FROM unnest($1::int[], $2::text[])', [
        items.map((i) => i.id),
        items.map((i) => i.v),
      ]);
      stats.sizes.push(items.length);
      return items.map((i) => i.id * 10);
    } finally {
      inFlight--;
    }
  };
  const commit = new GroupCommit<Item, number>(db.dataSource, write, {
    name: 'test',
    maxWaitMs: 5,
    concurrency: options.concurrency ?? 1,
    maxBatch: options.maxBatch ?? 200,
    transaction: options.transaction,
  });
  return { commit, stats };
}

const committed = async (ids: number[]) =>
  (await observer.query('SELECT id FROM gc_item WHERE id = ANY($1::int[])', [ids])).rows.length;

describe('GroupCommit', () => {
  it('writes items submitted together in one transaction and answers each after the commit', async () => {
    const { commit, stats } = writer();
    const ids = Array.from({ length: 50 }, (_, i) => 1_000 + i);
    const seenAtAnswer: number[] = [];
    const results = await Promise.all(
      ids.map((id) =>
        commit.submit({ id, v: 'ok' }).then(async (result) => {
          // At the moment a caller is answered, its row is visible to any other connection.
          seenAtAnswer.push(await committed([id]));
          return result;
        }),
      ),
    );
    expect(results).toEqual(ids.map((id) => id * 10));
    expect(seenAtAnswer.every((n) => n === 1)).toBe(true);
    expect(stats.sizes.reduce((a, b) => a + b, 0)).toBe(50);
    expect(stats.sizes.length).toBeLessThan(5);
  });

  it('without a transaction, each statement commits on its own and answers still follow the commit', async () => {
    // After an insert, a transaction has an id; a statement that runs after it in the same transaction
    // sees that id, one that runs on its own sees none.
    const after = (manager: EntityManager) =>
      manager.query(`SELECT pg_current_xact_id_if_assigned()::text AS xid`) as Promise<
        { xid: string | null }[]
      >;
    const seen: Record<string, (string | null)[]> = {};
    for (const transaction of [true, false]) {
      const commit = new GroupCommit<Item, number>(
        db.dataSource,
        async (manager, items) => {
          await manager.query('INSERT INTO gc_item (id, v) SELECT * FROM unnest($1::int[], $2::text[])', [
            items.map((i) => i.id),
            items.map((i) => i.v),
          ]);
          (seen[String(transaction)] ??= []).push((await after(manager))[0].xid);
          return items.map((i) => i.id);
        },
        { name: 'test', maxWaitMs: 5, transaction },
      );
      const ids = transaction ? [70_000, 70_001] : [70_002, 70_003];
      expect(await Promise.all(ids.map((id) => commit.submit({ id, v: 'ok' })))).toEqual(ids);
      expect(await committed(ids)).toBe(2);
    }
    expect(seen['true']).toEqual([expect.stringMatching(/^\d+$/)]);
    expect(seen['false']).toEqual([null]);
  });

  it('fails only the item that cannot be written; its batch neighbours are written', async () => {
    const { commit } = writer();
    const items = Array.from({ length: 10 }, (_, i) => ({ id: 2_000 + i, v: i === 4 ? 'poison' : 'ok' }));
    const outcomes = await Promise.allSettled(items.map((item) => commit.submit(item)));
    expect(outcomes.map((o) => o.status)).toEqual(
      items.map((i) => (i.v === 'poison' ? 'rejected' : 'fulfilled')),
    );
    expect((outcomes[4] as PromiseRejectedResult).reason).toMatchObject({
      message: expect.stringMatching(/check constraint/),
    });
    expect(await committed(items.map((i) => i.id))).toBe(9);
    // The nine written one by one are counted as what they were: nine committed transactions.
    expect(commit.items).toBe(9);
    expect(commit.batches).toBe(9);
  });

  it('holds at most `concurrency` connections, and batches grow while they are busy', async () => {
    const { commit, stats } = writer({ concurrency: 2, sleepS: 0.05 });
    const ids = Array.from({ length: 300 }, (_, i) => 3_000 + i);
    const all = Promise.all(ids.map((id) => commit.submit({ id, v: 'ok' })));
    // A full batch (200) left at once; the other 100 wait a moment for company.
    expect(commit.backlog).toBe(100);
    await all;
    expect(stats.maxInFlight).toBe(2);
    expect(stats.sizes.length).toBeLessThanOrEqual(4);
    expect(await committed(ids)).toBe(300);
  });

  it('keeps batches within maxBatch, and drain() waits for everything submitted', async () => {
    const { commit, stats } = writer({ maxBatch: 7 });
    const ids = Array.from({ length: 30 }, (_, i) => 4_000 + i);
    for (const id of ids) void commit.submit({ id, v: 'ok' });
    await commit.drain();
    expect(commit.backlog).toBe(0);
    expect(Math.max(...stats.sizes)).toBeLessThanOrEqual(7);
    expect(await committed(ids)).toBe(30);
  });
});

describe('ShardedGroupCommit', () => {
  it('writes the items of one key one batch at a time, in order, and different keys side by side', async () => {
    type Keyed = Item & { key: string };
    let maxParallel = 0;
    let inFlight = 0;
    const order: Record<string, number[]> = {};
    const commit = new ShardedGroupCommit<Keyed, number>(
      db.dataSource,
      async (manager, items) => {
        inFlight++;
        maxParallel = Math.max(maxParallel, inFlight);
        try {
          await manager.query('SELECT pg_sleep(0.05)');
          await manager.query('INSERT INTO gc_item (id, v) SELECT * FROM unnest($1::int[], $2::text[])', [
            items.map((i) => i.id),
            items.map((i) => i.v),
          ]);
          for (const item of items) (order[item.key] ??= []).push(item.id);
          return items.map((i) => i.id);
        } finally {
          inFlight--;
        }
      },
      { name: 'sharded', maxWaitMs: 2, maxBatch: 5, shards: 2, keyOf: (item) => item.key },
    );
    // Two keys that land on different writers.
    const keys = ['CARD-A', 'CARD-B', 'CARD-C', 'CARD-D'];
    const [a, b] = [keys[0], keys.find((k) => shardOf(k, 2) !== shardOf(keys[0], 2))!];
    const items: Keyed[] = [];
    for (let n = 0; n < 20; n++) {
      items.push({ id: 9_000 + n, v: 'a', key: a });
      items.push({ id: 9_100 + n, v: 'b', key: b });
    }
    const results = await Promise.all(items.map((item) => commit.submit(item)));
    expect(results).toEqual(items.map((i) => i.id));
    // Each key's items were written in submission order, by batches that never overlapped.
    expect(order[a]).toEqual(items.filter((i) => i.key === a).map((i) => i.id));
    expect(order[b]).toEqual(items.filter((i) => i.key === b).map((i) => i.id));
    expect(maxParallel).toBe(2);
    expect(commit.items).toBe(40);
    expect(commit.batches).toBe(8); // 20 items per key, 5 per batch
    expect(await committed(items.map((i) => i.id))).toBe(40);
  });

  it('hashes a key to the same writer every time', () => {
    expect(shardOf('CARD-0001', 2)).toBe(shardOf('CARD-0001', 2));
    const counts = [0, 0, 0];
    for (let i = 0; i < 3_000; i++) counts[shardOf(`TAG-${i}`, 3)]++;
    for (const count of counts) expect(count).toBeGreaterThan(800);
  });
});
