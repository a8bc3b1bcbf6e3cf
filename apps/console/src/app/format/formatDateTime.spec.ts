// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { withBrowserTimeZone } from '../../test/browserTimeZone';
import { applyBusinessTimeZone } from './businessTime';
import { formatDate, formatDateTime, formatInstant } from './formatDateTime';

withBrowserTimeZone('UTC');

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

  it('uses the business time zone when none is given, not the browser zone (UTC here)', () => {
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe('UTC');
    expect(formatDateTime('2025-03-01T16:05:09Z')).toBe('2025-03-02 00:05:09');
    applyBusinessTimeZone('Europe/Berlin');
    try {
      expect(formatDateTime('2025-03-01T16:05:09Z')).toBe('2025-03-01 17:05:09');
    } finally {
      applyBusinessTimeZone(undefined);
    }
  });
});

describe('formatDate and formatInstant', () => {
  it('give the business day and the instant with the business offset', () => {
    expect(formatDate('2025-03-01T16:05:09Z')).toBe('2025-03-02');
    expect(formatInstant('2025-03-01T16:05:09.750Z')).toBe('2025-03-02T00:05:09+08:00');
    expect(formatInstant('2025-03-01T16:05:09Z', 'UTC')).toBe('2025-03-01T16:05:09+00:00');
    expect(formatInstant('2025-07-01T12:00:00Z', 'America/St_Johns')).toBe('2025-07-01T09:30:00-02:30');
    expect(formatInstant(null)).toBe('');
    expect(formatInstant('nope')).toBe('');
  });
});
