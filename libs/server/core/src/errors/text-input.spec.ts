import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { of } from 'rxjs';
import { unstorableRequestFields, unstorableTextFields, UnstorableTextInterceptor } from './text-input';
import { ValidationException } from './validation.exception';

describe('text PostgreSQL refuses', () => {
  it.each([
    ['a NUL in a field', { name: 'A\u0000B' }, [['name', 'must not contain a NUL character']]],
    [
      'a NUL in a nested array',
      { tags: ['ok', { v: '\u0000' }] },
      [['tags.1.v', 'must not contain a NUL character']],
    ],
    [
      'a NUL in a key (named escaped)',
      { settings: { 'a\u0000': 1 } },
      [['settings.a\\u0000', 'the key must not contain a NUL character']],
    ],
    [
      'an unpaired surrogate',
      { name: 'x\uD800' },
      [['name', 'must not contain an unpaired UTF-16 surrogate']],
    ],
    ['a NUL in the value itself', 'a\u0000', [['(root)', 'must not contain a NUL character']]],
    [
      'several, in document order',
      { a: '\u0000', b: { c: ['\u0000'] }, d: '\u0000' },
      [
        ['a', 'must not contain a NUL character'],
        ['b.c.0', 'must not contain a NUL character'],
        ['d', 'must not contain a NUL character'],
      ],
    ],
    ['nothing wrong (an emoji is a surrogate pair)', { name: 'bus 🚌', n: 1, b: null }, []],
  ])('%s', (_case, value, expected) => {
    expect(unstorableTextFields(value)).toEqual(expected.map(([field, message]) => ({ field, message })));
  });

  it('walks a value nested far deeper than the call stack', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(unstorableTextFields({ deep })).toHaveLength(1);
  });

  it('reads the path parameters, the query and a JSON body of a request, not a raw buffer', () => {
    expect(
      unstorableRequestFields({
        params: { configKey: 'k\u0000' },
        query: { name: '\u0000' },
        body: { address: '\u0000' },
      }).map((f) => f.field),
    ).toEqual(['configKey', 'name', 'address']);
    expect(unstorableRequestFields({ body: Buffer.from([0]) })).toEqual([]);
  });

  it('the interceptor answers 400 naming the field before the route runs', () => {
    const http = (req: object) =>
      ({ getType: () => 'http', switchToHttp: () => ({ getRequest: () => req }) }) as ExecutionContext;
    const next: CallHandler = { handle: () => of('ran') };
    const interceptor = new UnstorableTextInterceptor();
    expect(() => interceptor.intercept(http({ query: { name: 'A\u0000B' } }), next)).toThrow(
      new ValidationException([{ field: 'name', message: 'must not contain a NUL character' }]),
    );
    expect(() => interceptor.intercept(http({ query: { name: 'A\u0000B' } }), next)).toThrow(
      'Validation failed: name: must not contain a NUL character',
    );
    let ran = false;
    interceptor.intercept(http({ query: { name: 'AB' } }), next).subscribe(() => (ran = true));
    expect(ran).toBe(true);
  });
});
