import { affectedRows, returnedRows } from './query-result';

describe('query results', () => {
  it('reads the rows of an UPDATE or DELETE answered as [rows, affectedCount]', () => {
    const result = [[{ id: 1 }, { id: 2 }], 2];
    expect(returnedRows(result)).toEqual([{ id: 1 }, { id: 2 }]);
    expect(affectedRows(result)).toBe(2);
    expect(returnedRows([[], 0])).toEqual([]);
    expect(affectedRows([[], 3])).toBe(3);
  });

  it('reads the rows of any other statement as they are', () => {
    expect(returnedRows([{ id: 1 }])).toEqual([{ id: 1 }]);
    expect(returnedRows([])).toEqual([]);
    // Two rows that happen to look like nothing special stay two rows.
    expect(returnedRows([{ a: 1 }, { b: 2 }])).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('refuses anything else with a clear error', () => {
    expect(() => returnedRows(undefined)).toThrow('query result is neither rows nor [rows, affectedCount]');
    expect(() => affectedRows([{ id: 1 }])).toThrow('affectedRows: not the result of an UPDATE or DELETE');
  });
});
