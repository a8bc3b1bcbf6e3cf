// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { withBrowserTimeZone } from '../../test/browserTimeZone';
import {
  applyBusinessTimeZone,
  businessTimeZone,
  isTimeZone,
  lastDaysRange,
  thisMonthRange,
  todayRange,
  utcOffsetLabel,
  type InstantRange,
} from './businessTime';
import { formatDateTime } from './formatDateTime';

// The browser in UTC: 16:00 UTC is already the next day in Shanghai.
withBrowserTimeZone('UTC');

const shown = ([start, end]: InstantRange, zone = 'Asia/Shanghai') => [
  formatDateTime(start, zone),
  formatDateTime(end, zone),
];

describe('default ranges in the business time zone', () => {
  const lateEvening = Date.parse('2026-03-31T17:00:00Z'); // 01:00 on 1 April in Shanghai

  it('today is 00:00:00 - 23:59:59 business time, not the browser day', () => {
    expect(shown(todayRange(lateEvening))).toEqual(['2026-04-01 00:00:00', '2026-04-01 23:59:59']);
    const [start, end] = todayRange(lateEvening);
    expect(new Date(start).toISOString()).toBe('2026-03-31T16:00:00.000Z');
    expect(new Date(end).toISOString()).toBe('2026-04-01T15:59:59.000Z');
  });

  it('the last N days end today 23:59:59 and start N-1 days before at 00:00:00', () => {
    expect(shown(lastDaysRange(7, lateEvening))).toEqual(['2026-03-26 00:00:00', '2026-04-01 23:59:59']);
    expect(shown(lastDaysRange(1, lateEvening))).toEqual(shown(todayRange(lateEvening)));
  });

  it('this month runs from the 1st to the last day of the business month', () => {
    expect(shown(thisMonthRange(lateEvening))).toEqual(['2026-04-01 00:00:00', '2026-04-30 23:59:59']);
    expect(shown(thisMonthRange(Date.parse('2028-02-10T00:00:00Z')))).toEqual([
      '2028-02-01 00:00:00',
      '2028-02-29 23:59:59',
    ]);
    expect(shown(thisMonthRange(Date.parse('2026-12-31T16:30:00Z')))).toEqual([
      '2027-01-01 00:00:00',
      '2027-01-31 23:59:59',
    ]);
  });

  it('follow the zone the platform settings apply, and refuse an unknown one', () => {
    applyBusinessTimeZone('UTC');
    try {
      expect(businessTimeZone()).toBe('UTC');
      expect(shown(todayRange(lateEvening), 'UTC')).toEqual(['2026-03-31 00:00:00', '2026-03-31 23:59:59']);
      applyBusinessTimeZone('Mars/Olympus');
      expect(businessTimeZone()).toBe('Asia/Shanghai');
    } finally {
      applyBusinessTimeZone(undefined);
    }
  });
});

describe('zone names and hints', () => {
  it.each([
    ['Asia/Shanghai', true],
    ['UTC', true],
    ['America/Argentina/Buenos_Aires', true],
    ['Mars/Olympus', false],
    ['', false],
    [undefined, false],
  ])('%s is a time zone: %s', (zone, ok) => {
    expect(isTimeZone(zone)).toBe(ok);
  });

  it.each([
    ['Asia/Shanghai', 'UTC+8'],
    ['UTC', 'UTC'],
    ['America/Argentina/Buenos_Aires', 'UTC-3'],
    ['Asia/Kolkata', 'UTC+5:30'],
  ])('%s -> %s', (zone, label) => {
    expect(utcOffsetLabel(Date.parse('2026-01-15T00:00:00Z'), zone)).toBe(label);
  });
});
