import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RESIZE_THROTTLE_MS, throttle } from './throttle';

describe('throttle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is 100 ms for resize handlers (spec §9)', () => {
    expect(RESIZE_THROTTLE_MS).toBe(100);
  });

  it('runs the first call at once and the last call of a burst once the window ends', () => {
    const fn = vi.fn();
    const throttled = throttle(fn, 100);
    throttled(1);
    throttled(2);
    throttled(3);
    expect(fn.mock.calls).toEqual([[1]]);
    vi.advanceTimersByTime(99);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(fn.mock.calls).toEqual([[1], [3]]);
  });

  it('calls at most once per window during a long burst', () => {
    const fn = vi.fn();
    const throttled = throttle(fn, 100);
    for (let ms = 0; ms < 1000; ms += 10) {
      throttled(ms);
      vi.advanceTimersByTime(10);
    }
    vi.advanceTimersByTime(100);
    expect(fn.mock.calls.length).toBeGreaterThanOrEqual(10);
    expect(fn.mock.calls.length).toBeLessThanOrEqual(11);
    expect(fn.mock.calls.at(-1)).toEqual([990]);
  });

  it('runs again at once after a quiet window', () => {
    const fn = vi.fn();
    const throttled = throttle(fn, 100);
    throttled('a');
    vi.advanceTimersByTime(500);
    throttled('b');
    expect(fn.mock.calls).toEqual([['a'], ['b']]);
  });

  it('cancel drops the pending trailing call', () => {
    const fn = vi.fn();
    const throttled = throttle(fn, 100);
    throttled(1);
    throttled(2);
    throttled.cancel();
    vi.advanceTimersByTime(200);
    expect(fn.mock.calls).toEqual([[1]]);
  });
});
