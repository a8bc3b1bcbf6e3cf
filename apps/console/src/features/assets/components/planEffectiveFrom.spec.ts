import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { withBrowserTimeZone } from '../../../test/browserTimeZone';
import { planEffectiveFrom } from './StationForm';

withBrowserTimeZone('UTC');

describe("a station's price plan start (picked in business time)", () => {
  const now = Date.parse('2026-11-22T10:00:00Z'); // 18:00 in Shanghai

  it('sends a later business time with the business offset, nothing for now or earlier', () => {
    expect(planEffectiveFrom(dayjs('2026-11-23 00:00:00'), now)).toBe('2026-11-23T00:00:00+08:00');
    // 12:00 is ahead on the browser's (UTC) clock but six hours ago in Shanghai.
    expect(planEffectiveFrom(dayjs('2026-11-22 12:00:00'), now)).toBeUndefined();
    expect(planEffectiveFrom(undefined, now)).toBeUndefined();
  });
});
