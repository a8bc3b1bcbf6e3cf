import { decideIdTag, IdTagCache } from './id-tag.cache';
import type { IdTagRecord } from './id-tag.repository';

const now = new Date('2026-01-01T00:00:00Z');

describe('decideIdTag', () => {
  it.each([
    ['unknown tag', undefined, 'Invalid'],
    ['accepted tag', { status: 'Accepted', expiryDate: null, parentIdTag: null }, 'Accepted'],
    ['blocked tag', { status: 'Blocked', expiryDate: null, parentIdTag: null }, 'Blocked'],
    ['invalid tag', { status: 'Invalid', expiryDate: null, parentIdTag: null }, 'Invalid'],
    ['expired by status', { status: 'Expired', expiryDate: null, parentIdTag: null }, 'Expired'],
    [
      'expired by date',
      { status: 'Accepted', expiryDate: new Date('2025-12-31T23:59:59Z'), parentIdTag: null },
      'Expired',
    ],
    [
      'not yet expired',
      { status: 'Accepted', expiryDate: new Date('2026-01-02T00:00:00Z'), parentIdTag: null },
      'Accepted',
    ],
  ] as const)('%s -> %s', (_name, record, status) => {
    expect(decideIdTag(record ? { idTag: 'T', ...record } : undefined, now).status).toBe(status);
  });

  it('passes expiry and parent through', () => {
    expect(
      decideIdTag(
        {
          idTag: 'T',
          status: 'Accepted',
          expiryDate: new Date('2026-02-01T00:00:00Z'),
          parentIdTag: 'FLEET',
        },
        now,
      ),
    ).toEqual({ status: 'Accepted', expiryDate: '2026-02-01T00:00:00.000Z', parentIdTag: 'FLEET' });
  });
});

describe('IdTagCache', () => {
  const record = (idTag: string): IdTagRecord => ({
    idTag,
    status: 'Accepted',
    expiryDate: null,
    parentIdTag: null,
  });
  /** The read model as a map; every query is recorded with the tags it asked for. */
  function store(known: string[]) {
    const queries: string[][] = [];
    let failNext = false;
    return {
      queries,
      failOnce: () => (failNext = true),
      findMany: async (idTags: string[]) => {
        queries.push([...idTags]);
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (failNext) {
          failNext = false;
          throw new Error('database unavailable');
        }
        return new Map(idTags.filter((t) => known.includes(t)).map((t) => [t, record(t)]));
      },
    };
  }

  it('reads the misses of one moment in one query, each tag once', async () => {
    const repository = store(['A', 'B', 'C']);
    const cache = new IdTagCache(repository);
    const results = await Promise.all(['A', 'B', 'A', 'C', 'X', 'B'].map((t) => cache.find(t)));
    expect(results.map((r) => r?.idTag ?? null)).toEqual(['A', 'B', 'A', 'C', null, 'B']);
    expect(repository.queries).toEqual([['A', 'B', 'C', 'X']]);
  });

  it('answers from the cache within the lifetime and reads again after it', async () => {
    const repository = store(['A']);
    const cache = new IdTagCache(repository, { ttlMs: 30 });
    await cache.find('A');
    await cache.find('A');
    expect(repository.queries).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect((await cache.find('A'))?.status).toBe('Accepted');
    expect(repository.queries).toHaveLength(2);
  });

  it('splits a large burst into batches of maxBatch', async () => {
    const tags = Array.from({ length: 7 }, (_, i) => `T${i}`);
    const repository = store(tags);
    const cache = new IdTagCache(repository, { maxBatch: 3 });
    await Promise.all(tags.map((t) => cache.find(t)));
    expect(repository.queries).toEqual([['T0', 'T1', 'T2'], ['T3', 'T4', 'T5'], ['T6']]);
  });

  it('fails the look-ups of a failed query, caches nothing, and reads again next time', async () => {
    const repository = store(['A']);
    const cache = new IdTagCache(repository);
    repository.failOnce();
    await expect(Promise.all([cache.find('A'), cache.find('B')])).rejects.toThrow('database unavailable');
    expect((await cache.find('A'))?.idTag).toBe('A');
    expect(repository.queries).toEqual([['A', 'B'], ['A']]);
  });

  describe('stale-while-error', () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    /** A read model whose reads can be made to fail or to hang. */
    function flaky(known: Map<string, IdTagRecord>) {
      const state = { mode: 'ok' as 'ok' | 'fail' | 'hang', reads: 0 };
      return {
        state,
        findMany: async (idTags: string[]) => {
          state.reads++;
          if (state.mode === 'fail') throw new Error('connect ECONNREFUSED');
          if (state.mode === 'hang') await new Promise(() => undefined);
          return new Map(idTags.filter((t) => known.has(t)).map((t) => [t, known.get(t)!]));
        },
      };
    }

    it('answers a known tag from its last entry when the read fails, and a never-read tag not at all', async () => {
      const known = new Map<string, IdTagRecord>([['A', { ...record('A'), status: 'Blocked' }]]);
      const repository = flaky(known);
      const errors: unknown[] = [];
      const cache = new IdTagCache(repository, { ttlMs: 0, onReadError: (e) => errors.push(e) });
      expect((await cache.find('A'))?.status).toBe('Blocked');
      expect(await cache.find('X')).toBeUndefined(); // known not to exist: Invalid from the cache too
      repository.state.mode = 'fail';
      expect((await cache.find('A'))?.status).toBe('Blocked');
      expect(await cache.find('X')).toBeUndefined();
      await expect(cache.find('NEW')).rejects.toThrow('ECONNREFUSED');
      expect(cache.staleAnswers).toBe(2);
      expect(errors.length).toBeGreaterThan(0);
      // Back up: the next look-up reads again and sees the change.
      repository.state.mode = 'ok';
      known.set('A', record('A'));
      expect((await cache.find('A'))?.status).toBe('Accepted');
    });

    it('answers from the last entry after readTimeoutMs when the read hangs', async () => {
      const repository = flaky(new Map([['A', record('A')]]));
      const cache = new IdTagCache(repository, { ttlMs: 0, readTimeoutMs: 30 });
      await cache.find('A');
      repository.state.mode = 'hang';
      const started = Date.now();
      expect((await cache.find('A'))?.status).toBe('Accepted');
      expect(Date.now() - started).toBeLessThan(500);
    });

    it('reports how each look-up was answered: hit, read, stale or failed', async () => {
      const repository = flaky(new Map([['A', record('A')]]));
      const results: string[] = [];
      const cache = new IdTagCache(repository, {
        ttlMs: 50,
        onLookup: (result) => results.push(result),
        onReadError: () => undefined,
      });
      await cache.find('A'); // read
      await cache.find('A'); // hit
      await sleep(60);
      repository.state.mode = 'fail';
      await cache.find('A'); // stale: the read failed, the entry answers
      await expect(cache.find('NEW')).rejects.toThrow('ECONNREFUSED'); // failed
      expect(results).toEqual(['read', 'hit', 'stale', 'failed']);
    });

    it('expire: the next look-up reads again within the lifetime, and the entry still answers if that read fails', async () => {
      const known = new Map<string, IdTagRecord>([['A', record('A')]]);
      const repository = flaky(known);
      const cache = new IdTagCache(repository, { ttlMs: 60_000, onReadError: () => undefined });
      expect((await cache.find('A'))?.status).toBe('Accepted');
      known.set('A', { ...record('A'), status: 'Blocked' });
      expect((await cache.find('A'))?.status).toBe('Accepted'); // fresh entry
      cache.expire('A');
      expect((await cache.find('A'))?.status).toBe('Blocked'); // read again at once
      expect(repository.state.reads).toBe(2);
      cache.expire('A');
      repository.state.mode = 'fail';
      expect((await cache.find('A'))?.status).toBe('Blocked'); // stale answer kept, unlike invalidate
    });

    it('does not answer from an entry older than maxStaleMs', async () => {
      const repository = flaky(new Map([['A', record('A')]]));
      const cache = new IdTagCache(repository, { ttlMs: 0, maxStaleMs: 20 });
      await cache.find('A');
      repository.state.mode = 'fail';
      expect((await cache.find('A'))?.status).toBe('Accepted');
      await sleep(30);
      await expect(cache.find('A')).rejects.toThrow('ECONNREFUSED');
    });
  });
});
