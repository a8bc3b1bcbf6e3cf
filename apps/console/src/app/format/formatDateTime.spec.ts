// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatDateTime } from './formatDateTime';

describe('formatDateTime (YYYY-MM-DD HH:mm:ss)', () => {
  it.each<[string, Parameters<typeof formatDateTime>[0], string | undefined, string]>([
    ['a Date in Shanghai', new Date('2025-03-01T16:05:09Z'), 'Asia/Shanghai', '2025-03-02 00:05:09'],
    ['epoch milliseconds in UTC', Date.UTC(2025, 0, 2, 3, 4, 5), 'UTC', '2025-01-02 03:04:05'],
    ['an ISO string', '2025-12-31T23:59:59Z', 'UTC', '2025-12-31 23:59:59'],
    ['midnight is 00, not 24', '2025-06-01T00:00:00Z', 'UTC', '2025-06-01 00:00:00'],
    ['null', null, 'UTC', ''],
    ['undefined', undefined, 'UTC', ''],
    ['an empty string', '', 'UTC', ''],
    ['an invalid date', 'not a date', 'UTC', ''],
  ])('%s', (_label, value, timeZone, expected) => {
    expect(formatDateTime(value, timeZone)).toBe(expected);
  });

  it('uses the local time zone when none is given', () => {
    const date = new Date(2025, 2, 1, 7, 8, 9);
    expect(formatDateTime(date)).toBe('2025-03-01 07:08:09');
  });
});
