import { z } from 'zod';
import { boundedJson, jsonBoundsProblem, jsonTextTooDeep } from './bounded-json';

const bounds = { maxDepth: 2, maxKeys: 5, maxBytes: 40 };

describe('bounded free-form JSON', () => {
  it.each([
    ['a scalar', 'text', undefined],
    ['within every bound', { a: [1, 2], b: 'x' }, undefined],
    ['one level too deep', { a: { b: {} } }, 'must be nested at most 2 levels deep'],
    [
      'too many keys and items, counted at every level',
      { a: [1, 2, 3], b: 1, c: 1 },
      'must have at most 5 keys and items',
    ],
    ['too heavy', { a: 'x'.repeat(40) }, 'must be at most 40 bytes as JSON'],
    ['heavy in UTF-8, not in characters', { a: '电'.repeat(12) }, 'must be at most 40 bytes as JSON'],
  ])('%s', (_case, value, problem) => {
    expect(jsonBoundsProblem(value, bounds)).toBe(problem);
  });

  it('measures a value nested 100,000 deep without overflowing the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(jsonBoundsProblem(deep, { maxDepth: 32, maxKeys: 1e9, maxBytes: 1e9 })).toBe(
      'must be nested at most 32 levels deep',
    );
  });

  it('says "1 level"', () => {
    expect(jsonBoundsProblem({ a: {} }, { maxDepth: 1, maxKeys: 9, maxBytes: 99 })).toBe(
      'must be nested at most 1 level deep',
    );
  });

  it('boundedJson is the schema plus the bounds, and the 400 names the field', () => {
    const schema = z.object({ settings: boundedJson(bounds, z.record(z.unknown())) });
    expect(schema.parse({ settings: { a: 1 } })).toEqual({ settings: { a: 1 } });
    const result = schema.safeParse({ settings: { a: { b: { c: 1 } } } });
    expect(result.success ? [] : result.error.issues).toEqual([
      expect.objectContaining({ path: ['settings'], message: 'must be nested at most 2 levels deep' }),
    ]);
    expect(schema.safeParse({ settings: 'x' }).success).toBe(false);
  });

  it.each([
    ['objects within the limit', '{"a":{"b":[1]}}', 3, false],
    ['objects beyond it', '{"a":{"b":[1]}}', 2, true],
    ['brackets inside strings', '{"a":"[[[{{{"}', 1, false],
    ['an escaped quote inside a string', '{"a":"\\"[[["}', 1, false],
    ['an escaped backslash ending a string', '{"a":"\\\\","b":[[1]]}', 2, true],
  ])('JSON text: %s', (_case, text, maxDepth, tooDeep) => {
    expect(jsonTextTooDeep(Buffer.from(text), maxDepth)).toBe(tooDeep);
  });
});
