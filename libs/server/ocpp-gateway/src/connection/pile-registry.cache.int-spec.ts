import { createTestDatabase, type TestDatabase } from '@voltdepot/server-testing';
import { PileRegistryCache } from './pile-registry.cache';
import { PileRegistryRepository, type PileRecord } from './pile-registry.repository';

/** The real repository, counting the rows each poll brings back. */
class CountingRepository extends PileRegistryRepository {
  polls: number[] = [];
  ids: string[][] = [];

  override async changedSince(since?: Date): Promise<{ rows: PileRecord[]; polledAt: Date }> {
    const result = await super.changedSince(since);
    this.polls.push(result.rows.length);
    this.ids.push(result.rows.map((row) => row.chargePointId));
    return result;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PileRegistryCache (real PostgreSQL)', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('reads a quiet registry with empty polls, keeps its entries, and picks up changes and deletions', async () => {
    // 500 piles registered in one statement (an import): the same transaction, one timestamp apart.
    await db.dataSource.query(
      `INSERT INTO pile_registry (charge_point_id, state, password_hash)
       SELECT 'RC-' || n, 'active', 'hash' FROM generate_series(1, 500) AS n`,
    );
    const repository = new CountingRepository(db.dataSource);
    const cache = new PileRegistryCache(repository, { overlapMs: 200, fullReloadMs: 60_000 });
    await cache.refresh();
    expect(repository.polls).toEqual([500]);
    const held = await cache.get('RC-7');
    expect(held).toMatchObject({ chargePointId: 'RC-7', state: 'active' });

    // The next poll looks back over the overlap; once past it, polls of an unchanged registry bring
    // back nothing, and the entries held are the same objects (nothing re-created).
    await sleep(300);
    await cache.refresh();
    await sleep(300);
    await cache.refresh();
    await cache.refresh();
    expect(repository.polls.slice(-2)).toEqual([0, 0]);
    expect(await cache.get('RC-7')).toBe(held);

    await db.dataSource.query(`UPDATE pile_registry SET state = 'disabled' WHERE charge_point_id = 'RC-7'`);
    await cache.refresh();
    expect(repository.polls.at(-1)).toBe(1);
    expect(await cache.get('RC-7')).toMatchObject({ state: 'disabled' });
    expect(await cache.get('RC-8')).toMatchObject({ state: 'active' });

    // A full reload drops deleted piles.
    await db.dataSource.query(`DELETE FROM pile_registry WHERE charge_point_id = 'RC-9'`);
    const reloading = new PileRegistryCache(repository, { overlapMs: 200, fullReloadMs: 0 });
    await reloading.refresh();
    expect(repository.polls.at(-1)).toBe(499);
    await db.dataSource.query(`DELETE FROM pile_registry WHERE charge_point_id = 'RC-10'`);
    await sleep(5); // fullReloadMs 0: every poll after this is a full one
    await reloading.refresh();
    expect(repository.polls.at(-1)).toBe(498);
    expect(reloading.size).toBe(498);
  });

  it('sees a row whose transaction committed after a poll that ran while it was open', async () => {
    const repository = new CountingRepository(db.dataSource);
    const cache = new PileRegistryCache(repository, { overlapMs: 2_000, fullReloadMs: 60_000 });
    await cache.refresh();
    const runner = db.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      // Stamped now, committed after the next poll.
      await runner.query(
        `INSERT INTO pile_registry (charge_point_id, state, password_hash) VALUES ('LATE-1', 'active', 'h')`,
      );
      await sleep(100);
      await cache.refresh();
      expect(repository.ids.at(-1)).not.toContain('LATE-1');
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
    await sleep(100);
    // Its timestamp is before the previous poll; the look-back still finds it.
    await cache.refresh();
    expect(repository.ids.at(-1)).toContain('LATE-1');
    expect(await cache.get('LATE-1')).toMatchObject({ chargePointId: 'LATE-1', state: 'active' });
  });
});
