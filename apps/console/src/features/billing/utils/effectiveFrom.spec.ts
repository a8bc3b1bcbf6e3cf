// @vitest-environment node
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { withBrowserTimeZone } from '../../../test/browserTimeZone';
import { effectiveFromParam, isPastInstant } from './effectiveFrom';

withBrowserTimeZone('UTC');

describe('effective from (picked in business time)', () => {
  const now = Date.parse('2026-11-22T10:00:00Z'); // 18:00 in Shanghai

  it('sends a later picked business time with the business offset, and nothing for empty or up to now', () => {
    // 2026-11-23 00:00 picked: Shanghai midnight (16:00 UTC on the 22nd), not the browser's midnight.
    expect(effectiveFromParam(dayjs('2026-11-23 00:00:00'), now)).toBe('2026-11-23T00:00:00+08:00');
    expect(effectiveFromParam('2026-11-22 18:30:00', now)).toBe('2026-11-22T18:30:00+08:00');
    expect(effectiveFromParam(undefined, now)).toBeUndefined();
    expect(effectiveFromParam('', now)).toBeUndefined();
    // 17:59:30 in Shanghai is 30 seconds ago, though it lies ahead on the browser's (UTC) clock.
    expect(effectiveFromParam(dayjs('2026-11-22 17:59:30'), now)).toBeUndefined();
  });

  it('calls a picked business time more than a minute ago past', () => {
    expect(isPastInstant(dayjs('2026-11-22 17:58:00'), now)).toBe(true);
    expect(isPastInstant(dayjs('2026-11-22 17:59:30'), now)).toBe(false);
    expect(isPastInstant(dayjs('2026-11-22 11:00:00'), now)).toBe(true);
    expect(isPastInstant(dayjs('2026-11-23 09:00:00'), now)).toBe(false);
    expect(isPastInstant(null, now)).toBe(false);
  });
});
