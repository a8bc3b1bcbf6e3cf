// @vitest-environment node
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { defaultOrderRange, rangeParams, rangeSearchColumn } from './orderRange';

describe('defaultOrderRange', () => {
  const shanghai = (d: dayjs.Dayjs) => formatDateTime(d.toDate(), 'Asia/Shanghai');

  it('is yesterday 00:00:00 to today 23:59:59 in the business time zone (spec §9)', () => {
    const [start, end] = defaultOrderRange(dayjs('2026-11-22T07:42:10Z'));
    expect(start.toISOString()).toBe('2026-11-20T16:00:00.000Z');
    expect(end.toISOString()).toBe('2026-11-22T15:59:59.000Z');
    expect([shanghai(start), shanghai(end)]).toEqual(['2026-11-21 00:00:00', '2026-11-22 23:59:59']);
  });

  it("takes the day of the business time zone, not the browser's, near midnight", () => {
    // 17:30 UTC on the 22nd is already 01:30 on the 23rd in Shanghai.
    const [start, end] = defaultOrderRange(dayjs('2026-11-22T17:30:00Z'));
    expect([shanghai(start), shanghai(end)]).toEqual(['2026-11-22 00:00:00', '2026-11-23 23:59:59']);
    // And another business zone gives its own days.
    const [utcStart, utcEnd] = defaultOrderRange(dayjs('2026-11-22T17:30:00Z'), 'UTC');
    expect([utcStart.toISOString(), utcEnd.toISOString()]).toEqual([
      '2026-11-21T00:00:00.000Z',
      '2026-11-22T23:59:59.000Z',
    ]);
  });

  it('crosses month and year ends', () => {
    const [start, end] = defaultOrderRange(dayjs('2026-12-31T16:00:01Z')); // 2027-01-01 00:00:01 +08:00
    expect([shanghai(start), shanghai(end)]).toEqual(['2026-12-31 00:00:00', '2027-01-01 23:59:59']);
    const [march] = defaultOrderRange(dayjs('2027-03-01T02:00:00Z'));
    expect(shanghai(march)).toBe('2027-02-28 00:00:00');
  });

  it('settles the offset across a daylight-saving change', () => {
    // New York moved to summer time on 2026-03-08 at 02:00.
    const [start, end] = defaultOrderRange(dayjs('2026-03-08T15:00:00Z'), 'America/New_York');
    expect(start.toISOString()).toBe('2026-03-07T05:00:00.000Z');
    expect(end.toISOString()).toBe('2026-03-09T03:59:59.000Z');
  });

  it('sends the range as instants with the browser offset', () => {
    const range = defaultOrderRange(dayjs('2026-11-22T07:42:10Z'));
    const params = rangeParams(range);
    expect(dayjs(params.start).valueOf()).toBe(range[0].valueOf());
    expect(dayjs(params.end).valueOf()).toBe(range[1].valueOf());
    expect(params.start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    expect(Date.parse(params.start as string)).toBe(Date.parse('2026-11-21T00:00:00+08:00'));
    expect(rangeParams(undefined)).toEqual({});
  });

  it('adds the offset to a range the search form hands over as wall-clock text', () => {
    const params = rangeParams(['2026-11-21 00:00:00', '2026-11-22 23:59:59']);
    expect(params.start).toMatch(/^2026-11-21T00:00:00[+-]\d{2}:\d{2}$/);
    expect(params.end).toMatch(/^2026-11-22T23:59:59[+-]\d{2}:\d{2}$/);
    expect(new Date(params.start as string).getTime()).toBe(new Date(2026, 10, 21, 0, 0, 0).getTime());
  });
});

describe('rangeSearchColumn', () => {
  it('is a search-only period defaulting to the spec range, sent as start/end instants', () => {
    const column = rangeSearchColumn<object>('Stop time');
    expect(column.hideInTable).toBe(true);
    const [start, end] = column.initialValue as [dayjs.Dayjs, dayjs.Dayjs];
    expect(formatDateTime(start.toDate(), 'Asia/Shanghai').slice(11)).toBe('00:00:00');
    expect(end.diff(start, 'hour')).toBe(47);
    const transform = (column.search as { transform: (v: unknown) => unknown }).transform;
    expect(transform(['2026-11-21 00:00:00', '2026-11-22 23:59:59'])).toEqual(
      rangeParams(['2026-11-21 00:00:00', '2026-11-22 23:59:59']),
    );
    expect(transform(undefined)).toEqual({});
  });
});
