// @vitest-environment node
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { withBrowserTimeZone } from '../../test/browserTimeZone';
import { todayRange } from './businessTime';
import {
  instantOfPicked,
  pickedInstantParam,
  pickedRangeParams,
  pickerRangeOf,
  pickerValueOf,
} from './businessPicker';

// A browser 16 hours behind Shanghai (in winter): the picker must still show and mean Shanghai time.
withBrowserTimeZone('America/Los_Angeles');

describe('pickers hold business wall-clock time', () => {
  it('shows an instant as its business wall clock', () => {
    expect(pickerValueOf('2026-01-15T16:00:00Z').format('YYYY-MM-DD HH:mm:ss')).toBe('2026-01-16 00:00:00');
    expect(pickerValueOf('nope').isValid()).toBe(false);
  });

  it("shows today's default range as 00:00:00 - 23:59:59 and sends those business instants", () => {
    const now = Date.parse('2026-01-15T20:00:00Z'); // 04:00 on the 16th in Shanghai, noon on the 15th here
    const range = pickerRangeOf(todayRange(now));
    expect(range.map((d) => d.format('YYYY-MM-DD HH:mm:ss'))).toEqual([
      '2026-01-16 00:00:00',
      '2026-01-16 23:59:59',
    ]);
    expect(pickedRangeParams(range)).toEqual({
      start: '2026-01-16T00:00:00+08:00',
      end: '2026-01-16T23:59:59+08:00',
    });
    expect(range.map((d) => instantOfPicked(d))).toEqual(todayRange(now));
  });

  it('reads picked values and the text a form makes of them in the business zone', () => {
    expect(pickedInstantParam(dayjs('2026-07-01 09:30:00'))).toBe('2026-07-01T09:30:00+08:00');
    expect(pickedInstantParam('2026-07-01 09:30:00')).toBe('2026-07-01T09:30:00+08:00');
    expect(pickedInstantParam('2026-07-01 09:30:00', 'UTC')).toBe('2026-07-01T09:30:00+00:00');
    expect(pickedInstantParam(null)).toBeUndefined();
    expect(pickedRangeParams(undefined)).toEqual({});
    expect(pickedRangeParams(['2026-07-01 00:00:00', ''])).toEqual({});
  });
});
