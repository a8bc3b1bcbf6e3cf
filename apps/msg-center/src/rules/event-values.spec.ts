import { conditionMatches } from './event-values';

describe('conditionMatches', () => {
  it.each([
    [{}, true],
    [{ stopKind: 'abnormal' }, true],
    [{ stopKind: 'normal' }, false],
    [{ stopKind: 'abnormal', gun: 2 }, true],
    [{ gun: '3' }, false],
  ])('%j -> %s', (condition, expected) => {
    expect(conditionMatches(condition, { stopKind: 'abnormal', gun: 2 })).toBe(expected);
  });
});
