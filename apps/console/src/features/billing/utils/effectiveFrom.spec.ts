// @vitest-environment node
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { effectiveFromParam, isPastInstant } from './effectiveFrom';

describe('effective from', () => {
  const now = dayjs('2026-11-22T10:00:00Z');

  it('sends a later instant with its offset, and nothing for empty or up to now (the api takes now)', () => {
    const later = effectiveFromParam(dayjs('2026-11-23T00:00:00Z'), now) as string;
    expect(later).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00[+-]\d{2}:\d{2}$/);
    expect(Date.parse(later)).toBe(Date.parse('2026-11-23T00:00:00Z'));
    expect(effectiveFromParam(undefined, now)).toBeUndefined();
    expect(effectiveFromParam('', now)).toBeUndefined();
    expect(effectiveFromParam(now.subtract(30, 'second'), now)).toBeUndefined();
  });

  it('calls an instant more than a minute ago past', () => {
    expect(isPastInstant(now.subtract(2, 'minute'), now)).toBe(true);
    expect(isPastInstant(now.subtract(30, 'second'), now)).toBe(false);
    expect(isPastInstant(now.add(1, 'day'), now)).toBe(false);
    expect(isPastInstant(null, now)).toBe(false);
  });
});
