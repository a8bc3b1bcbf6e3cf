import { describe, expect, it } from 'vitest';
import { withBrowserTimeZone } from '../../test/browserTimeZone';
import { toRange, todayRange } from './InboxDialog';

// A browser in UTC: at 20:00 UTC it is already tomorrow in Shanghai.
withBrowserTimeZone('UTC');

describe('the inbox range (spec §9: today)', () => {
  it('is today 00:00:00 - 23:59:59 of the business time zone, shown and sent as such', () => {
    const range = todayRange(Date.parse('2026-03-01T20:00:00Z'));
    // What the picker shows.
    expect(range.map((d) => d.format('YYYY-MM-DD HH:mm:ss'))).toEqual([
      '2026-03-02 00:00:00',
      '2026-03-02 23:59:59',
    ]);
    // What the message centre is asked for (business wall-clock text).
    expect(toRange(range)).toEqual({ start: '2026-03-02 00:00:00', end: '2026-03-02 23:59:59' });
  });

  it('is the same day whether the browser is before or after its own midnight', () => {
    expect(toRange(todayRange(Date.parse('2026-03-01T15:59:59Z')))).toEqual({
      start: '2026-03-01 00:00:00',
      end: '2026-03-01 23:59:59',
    });
    expect(toRange(todayRange(Date.parse('2026-03-01T16:00:00Z'))).start).toBe('2026-03-02 00:00:00');
  });
});
