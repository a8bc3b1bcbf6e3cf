import { describe, expect, it } from 'vitest';
import { filtersOf } from './useGrid';

describe('filtersOf', () => {
  it('leaves out paging, blanks and nulls, and trims text', () => {
    expect(
      filtersOf({
        current: 2,
        pageSize: 10,
        keyword: 'x',
        templateName: '  stop ',
        type: '',
        configName: undefined,
        channel: 0,
        enabled: false,
        x: null,
      }),
    ).toEqual({ templateName: 'stop', channel: 0, enabled: false });
  });

  it('keeps only the given keys when the api names its filters', () => {
    expect(
      filtersOf({ current: 1, orderNo: ' A1 ', stationId: 3, other: 'x', idTag: '  ' }, [
        'orderNo',
        'stationId',
        'idTag',
      ]),
    ).toEqual({
      orderNo: 'A1',
      stationId: 3,
    });
  });
});
