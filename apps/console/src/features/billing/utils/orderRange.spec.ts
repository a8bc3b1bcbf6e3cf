// @vitest-environment node
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { defaultOrderRange, rangeParams, rangeSearchColumn } from './orderRange';

describe('defaultOrderRange', () => {
  it('is yesterday 00:00:00 to today 23:59:59 (spec §9)', () => {
    const [start, end] = defaultOrderRange(dayjs('2026-11-22T15:42:10'));
    expect(start.format('YYYY-MM-DD HH:mm:ss')).toBe('2026-11-21 00:00:00');
    expect(end.format('YYYY-MM-DD HH:mm:ss.SSS')).toBe('2026-11-22 23:59:59.000');
  });

  it('crosses month and year ends', () => {
    const [start, end] = defaultOrderRange(dayjs('2027-01-01T00:00:01'));
    expect(start.format('YYYY-MM-DD HH:mm:ss')).toBe('2026-12-31 00:00:00');
    expect(end.format('YYYY-MM-DD HH:mm:ss')).toBe('2027-01-01 23:59:59');
  });

  it('sends the range as instants with the browser offset', () => {
    const range = defaultOrderRange(dayjs('2026-11-22T15:42:10'));
    const params = rangeParams(range);
    expect(dayjs(params.start).valueOf()).toBe(range[0].valueOf());
    expect(dayjs(params.end).valueOf()).toBe(range[1].valueOf());
    expect(params.start).toMatch(/^2026-11-21T00:00:00[+-]\d{2}:\d{2}$/);
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
    expect(start.format('HH:mm:ss')).toBe('00:00:00');
    expect(end.diff(start, 'hour')).toBe(47);
    const transform = (column.search as { transform: (v: unknown) => unknown }).transform;
    expect(transform(['2026-11-21 00:00:00', '2026-11-22 23:59:59'])).toEqual(
      rangeParams(['2026-11-21 00:00:00', '2026-11-22 23:59:59']),
    );
    expect(transform(undefined)).toEqual({});
  });
});
