// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { checkNewKey, duplicatedIndexes, mapToPairs, pairsToMap, validatePairs } from './keyValue';

const pairs = (...keys: string[]) => keys.map((key, i) => ({ key, value: `v${i}` }));

describe('key-value rules (spec §5)', () => {
  it.each([
    ['', 'keyEmpty'],
    ['   ', 'keyEmpty'],
    ['pile', 'keyDuplicated'],
    [' pile ', 'keyDuplicated'],
    ['gun', null],
  ])('adding key %j to [pile] gives %s', (key, expected) => {
    expect(checkNewKey(pairs('pile'), key)).toBe(expected);
  });

  it('the list is refused when keys repeat, and only then', () => {
    expect(validatePairs(pairs('a', 'b'))).toBeNull();
    expect(validatePairs(pairs('a', 'b', ' a'))).toBe('keyDuplicated');
    expect(duplicatedIndexes(pairs('a', 'b', 'a', 'b'))).toEqual([2, 3]);
    expect(validatePairs(pairs('a', '', ''))).toBeNull(); // empty keys are dropped, never duplicates
    expect(validatePairs(undefined)).toBeNull();
  });

  it('builds the map with keys trimmed and empty keys dropped', () => {
    expect(
      pairsToMap([
        { key: ' pile ', value: 'A-01' },
        { key: '', value: 'lost' },
        { key: 'code', value: '${reasonCode}' },
      ]),
    ).toEqual({ pile: 'A-01', code: '${reasonCode}' });
    expect(pairsToMap(undefined)).toEqual({});
  });

  it('turns a stored map into pairs in order, values as text', () => {
    expect(mapToPairs({ a: '1', b: 2, c: null })).toEqual([
      { key: 'a', value: '1' },
      { key: 'b', value: '2' },
      { key: 'c', value: '' },
    ]);
    expect(mapToPairs(null)).toEqual([]);
  });
});
