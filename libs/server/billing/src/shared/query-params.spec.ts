import { orderQuerySchema } from '../orders-query/dto/order-query.dto';
import { gridPageParamsSchema, parseQueryInstant } from './query-params';

describe('parseQueryInstant', () => {
  it('reads wall-clock text in the business time zone and ISO instants as given', () => {
    expect(parseQueryInstant('2026-11-21 00:00:00')?.toISOString()).toBe('2026-11-20T16:00:00.000Z');
    expect(parseQueryInstant('2026-11-21T00:00:00+08:00')?.toISOString()).toBe('2026-11-20T16:00:00.000Z');
    expect(parseQueryInstant('2026-11-21T00:00:00Z')?.toISOString()).toBe('2026-11-21T00:00:00.000Z');
    expect(parseQueryInstant('2026-11-21T08:30')?.toISOString()).toBe('2026-11-21T00:30:00.000Z');
    for (const bad of ['2026-02-30 10:00:00', '2026-11-21 25:00:00', 'yesterday', '2026-13-01 00:00:00'])
      expect(parseQueryInstant(bad)).toBeUndefined();
  });

  it('keeps years below 100 as written (not 19xx)', () => {
    expect(parseQueryInstant('0099-06-01 12:00:00')?.getUTCFullYear()).toBe(99);
    expect(parseQueryInstant('0050-02-29 00:00:00')).toBeUndefined(); // year 50 is no leap year
  });
});

describe('grid query parameters', () => {
  const issues = (r: { success: boolean; error?: { issues: { path: (string | number)[] }[] } }) =>
    r.success ? [] : r.error!.issues.map((i) => i.path.join('.'));

  it.each([
    ['a repeated id', { stationId: ['1', '2'] }, 'stationId'],
    ['a repeated date', { start: ['2026-11-21 00:00:00', '2026-11-22 00:00:00'] }, 'start'],
    ['a nested object', { end: { gt: '2026-11-21' } }, 'end'],
    ['a repeated status', { payStatus: ['0', '1'] }, 'payStatus'],
    ['an id beyond integer', { gunId: '2147483648' }, 'gunId'],
    // PostgreSQL refuses NUL in text: it would be a 500 from the query.
    ['a NUL character in text', { orderNo: 'A\u0000B' }, 'orderNo'],
  ])('refuses %s, naming the field', (_case, query, field) => {
    expect(issues(orderQuerySchema.safeParse(query))).toEqual([field]);
  });

  it('refuses page numbers and sizes out of range', () => {
    expect(issues(gridPageParamsSchema.safeParse({ page: '1'.repeat(30), size: '10' }))).toEqual(['page']);
    expect(issues(gridPageParamsSchema.safeParse({ page: '1', size: '1.5' }))).toEqual(['size']);
    // Only decimal digits: not read as 16 and 100 (z.coerce.number would).
    expect(issues(gridPageParamsSchema.safeParse({ page: '0x10', size: '1e2' }))).toEqual(['page', 'size']);
  });
});
