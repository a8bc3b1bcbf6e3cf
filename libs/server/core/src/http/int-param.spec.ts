import { intParam, pageParams } from './int-param';
import { z } from 'zod';

describe('intParam', () => {
  const schema = intParam(1, 100);

  it.each([
    ['7', 7],
    [' 42 ', 42],
    ['+3', 3],
    [100, 100],
  ])('reads %j as %d', (input, expected) => {
    expect(schema.parse(input)).toBe(expected);
  });

  it.each(['0x10', '1e2', '', '  ', '1.5', 'abc', '٣'])('refuses %j with a clear message', (input) => {
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0].message).toBe('must be a whole number written in decimal digits');
  });

  it.each([true, null, [1], { n: 1 }])('refuses %j', (input) => {
    expect(schema.safeParse(input).success).toBe(false);
  });

  it('keeps the bounds, with the messages given', () => {
    expect(schema.safeParse('0').success).toBe(false);
    expect(schema.safeParse('101').success).toBe(false);
    expect(schema.safeParse(2.5).success).toBe(false);
    const named = intParam(1, 10, { min: 'page starts at 1', max: 'at most 10' });
    expect(named.safeParse('0').error!.issues[0].message).toBe('page starts at 1');
    expect(named.safeParse('11').error!.issues[0].message).toBe('at most 10');
    const typed = intParam(1, 10, { type: 'id must be a positive whole number' });
    expect(typed.safeParse('abc').error!.issues[0].message).toBe('id must be a positive whole number');
    expect(typed.safeParse(2.5).error!.issues[0].message).toBe('id must be a positive whole number');
  });

  it('refuses pages beyond 100,000 (an OFFSET the database cannot take otherwise)', () => {
    const page = z.object(pageParams(500));
    expect(page.safeParse({ page: '1e300', size: '10' }).success).toBe(false);
    expect(page.safeParse({ page: '100001', size: '10' }).success).toBe(false);
    expect(page.safeParse({ page: '3', size: '501' }).success).toBe(false);
    expect(page.parse({ page: '3', size: '20' })).toEqual({ page: 3, size: 20 });
  });

  it('is optional when wrapped', () => {
    expect(intParam(0, 4).optional().parse(undefined)).toBeUndefined();
  });
});
