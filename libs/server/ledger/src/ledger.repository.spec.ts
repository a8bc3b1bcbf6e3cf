import type { DataSource } from 'typeorm';
import { LedgerRepository } from './ledger.repository';

/** A data source whose queries answer in turn from `answers` (an Error rejects). */
function fakeDataSource(answers: (unknown[] | Error)[]) {
  const query = jest.fn(async () => {
    const next = answers.shift();
    if (next instanceof Error) throw next;
    return next ?? [];
  });
  return { dataSource: { query } as unknown as DataSource, query };
}

const SYSTEM_ROWS = [
  { id: '1', kind: 'cash' },
  { id: '2', kind: 'revenue' },
];

describe('LedgerRepository.systemAccounts', () => {
  it('reads the system accounts once for all postings', async () => {
    const { dataSource, query } = fakeDataSource([SYSTEM_ROWS]);
    const repository = new LedgerRepository(dataSource);
    await repository.systemAccounts();
    expect(await repository.systemAccountId('revenue')).toBe(2);
    expect(await repository.systemAccountId('cash')).toBe(1);
    expect(query).toHaveBeenCalledTimes(1);
  });

  it('reads again after a failed read instead of failing every later posting', async () => {
    const { dataSource, query } = fakeDataSource([new Error('connection refused'), SYSTEM_ROWS]);
    const repository = new LedgerRepository(dataSource);
    await expect(repository.systemAccountId('revenue')).rejects.toThrow('connection refused');
    expect(await repository.systemAccountId('revenue')).toBe(2);
    expect(query).toHaveBeenCalledTimes(2);
  });

  it('reads again after finding them missing (migrations run after the process started)', async () => {
    const { dataSource } = fakeDataSource([[], SYSTEM_ROWS]);
    const repository = new LedgerRepository(dataSource);
    await expect(repository.systemAccountId('cash')).rejects.toThrow(/cash account is missing/);
    expect(await repository.systemAccountId('cash')).toBe(1);
  });
});
