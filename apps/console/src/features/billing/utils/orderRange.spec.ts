// @vitest-environment node
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { withBrowserTimeZone } from '../../../test/browserTimeZone';
import { defaultOrderRange, rangeParams, rangeSearchColumn } from './orderRange';

// A browser 16 hours behind the business time zone: its days are not the business days.
withBrowserTimeZone('America/Los_Angeles');

const iso = (ms: number) => new Date(ms).toISOString();

describe('defaultOrderRange', () => {
  const shanghai = (ms: number) => formatDateTime(ms, 'Asia/Shanghai');

  it('is yesterday 00:00:00 to today 23:59:59 in the business time zone (spec §9)', () => {
    const [start, end] = defaultOrderRange(Date.parse('2026-11-22T07:42:10Z'));
    expect(iso(start)).toBe('2026-11-20T16:00:00.000Z');
    expect(iso(end)).toBe('2026-11-22T15:59:59.000Z');
    expect([shanghai(start), shanghai(end)]).toEqual(['2026-11-21 00:00:00', '2026-11-22 23:59:59']);
  });

  it("takes the day of the business time zone, not the browser's, near midnight", () => {
    // 17:30 UTC on the 22nd is already 01:30 on the 23rd in Shanghai (and 09:30 on the 22nd here).
    const [start, end] = defaultOrderRange(Date.parse('2026-11-22T17:30:00Z'));
    expect([shanghai(start), shanghai(end)]).toEqual(['2026-11-22 00:00:00', '2026-11-23 23:59:59']);
    // And another business zone gives its own days.
    const [utcStart, utcEnd] = defaultOrderRange(Date.parse('2026-11-22T17:30:00Z'), 'UTC');
    expect([iso(utcStart), iso(utcEnd)]).toEqual(['2026-11-21T00:00:00.000Z', '2026-11-22T23:59:59.000Z']);
  });

  it('crosses month and year ends', () => {
    const [start, end] = defaultOrderRange(Date.parse('2026-12-31T16:00:01Z')); // 2027-01-01 00:00:01 +08:00
    expect([shanghai(start), shanghai(end)]).toEqual(['2026-12-31 00:00:00', '2027-01-01 23:59:59']);
    const [march] = defaultOrderRange(Date.parse('2027-03-01T02:00:00Z'));
    expect(shanghai(march)).toBe('2027-02-28 00:00:00');
  });

  it('settles the offset across a daylight-saving change', () => {
    // New York moved to summer time on 2026-03-08 at 02:00.
    const [start, end] = defaultOrderRange(Date.parse('2026-03-08T15:00:00Z'), 'America/New_York');
    expect(iso(start)).toBe('2026-03-07T05:00:00.000Z');
    expect(iso(end)).toBe('2026-03-09T03:59:59.000Z');
  });
});

describe('rangeParams', () => {
  it('reads a picked range as business wall-clock time, sent with the business offset', () => {
    expect(rangeParams(['2026-11-21 00:00:00', '2026-11-22 23:59:59'])).toEqual({
      start: '2026-11-21T00:00:00+08:00',
      end: '2026-11-22T23:59:59+08:00',
    });
    expect(rangeParams([dayjs('2026-11-21 00:00:00'), dayjs('2026-11-22 23:59:59')])).toEqual({
      start: '2026-11-21T00:00:00+08:00',
      end: '2026-11-22T23:59:59+08:00',
    });
    expect(rangeParams(undefined)).toEqual({});
  });
});

describe('rangeSearchColumn', () => {
  it('shows the default range as 00:00:00 - 23:59:59 business time in the picker, and sends those instants', () => {
    const column = rangeSearchColumn<object>('Stop time');
    expect(column.hideInTable).toBe(true);
    const [start, end] = column.initialValue as [dayjs.Dayjs, dayjs.Dayjs];
    // What the picker shows (the browser's reading of its value): business midnight, not 08:00 or 16:00.
    expect(start.format('HH:mm:ss')).toBe('00:00:00');
    expect(end.format('HH:mm:ss')).toBe('23:59:59');
    const [from, to] = defaultOrderRange();
    expect(start.format('YYYY-MM-DD HH:mm:ss')).toBe(formatDateTime(from, 'Asia/Shanghai'));
    const transform = (column.search as { transform: (v: unknown) => { start: string; end: string } })
      .transform;
    const sent = transform([start, end]);
    expect([Date.parse(sent.start), Date.parse(sent.end)]).toEqual([from, to]);
    expect(sent.start).toMatch(/T00:00:00\+08:00$/);
    expect(transform(undefined)).toEqual({});
  });
});
