import { OpenTransactions } from './open-transactions';

/** The database side: open transactions as rows; `mode` makes its queries fail or hang. */
function database(rows: { transactionId: number; idTag: string }[]) {
  const state = { mode: 'ok' as 'ok' | 'fail' | 'hang', queries: 0 };
  const hangOrFail = async () => {
    state.queries++;
    if (state.mode === 'fail') throw new Error('connect ECONNREFUSED');
    if (state.mode === 'hang') await new Promise(() => undefined);
  };
  return {
    rows,
    state,
    hasOpenTransaction: async (idTag: string) => {
      await hangOrFail();
      return rows.some((r) => r.idTag === idTag);
    },
    openTransactions: async () => {
      await hangOrFail();
      return [...rows];
    },
  };
}

describe('OpenTransactions', () => {
  it('asks the database while it answers (exact across replicas)', async () => {
    const db = database([]);
    const open = new OpenTransactions(db, { refreshMs: 0 });
    await open.start();
    db.rows.push({ transactionId: 1, idTag: 'A' }); // started on another replica
    expect(await open.has('A')).toBe(true);
    expect(open.hasInMemory('A')).toBe(false);
    expect(open.fallbacks).toBe(0);
  });

  it('answers from the last reload plus local starts and stops when the database fails or hangs', async () => {
    const db = database([{ transactionId: 1, idTag: 'A' }]);
    const open = new OpenTransactions(db, { refreshMs: 0, queryTimeoutMs: 20 });
    await open.start();
    db.state.mode = 'fail';
    expect(await open.has('A')).toBe(true);
    expect(await open.has('B')).toBe(false);
    open.started(2, 'B');
    open.stopped(1);
    db.state.mode = 'hang';
    const started = Date.now();
    expect(await open.has('B')).toBe(true);
    expect(await open.has('A')).toBe(false);
    expect(Date.now() - started).toBeLessThan(500);
    expect(open.fallbacks).toBe(4);
  });

  it('counts a tag open until its last transaction stops; a reload keeps local changes made meanwhile', async () => {
    const db = database([
      { transactionId: 1, idTag: 'A' },
      { transactionId: 2, idTag: 'A' },
    ]);
    const open = new OpenTransactions(db, { refreshMs: 0 });
    await open.start();
    open.stopped(1);
    expect(open.hasInMemory('A')).toBe(true);
    open.stopped(2);
    open.stopped(2);
    expect(open.hasInMemory('A')).toBe(false);
    // A start committed while a reload is reading is not lost when the reload replaces everything.
    db.rows.splice(0);
    const reload = open.refresh();
    open.started(3, 'C');
    await reload;
    expect(open.hasInMemory('C')).toBe(true);
  });
});
