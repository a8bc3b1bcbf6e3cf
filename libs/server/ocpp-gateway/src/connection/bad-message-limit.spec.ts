import { BadMessageLimit } from './bad-message-limit';

describe('BadMessageLimit', () => {
  it('is exceeded by the (max + 1)th bad message within the window', () => {
    let now = 0;
    const limit = new BadMessageLimit(3, 1_000, () => now);
    expect([limit.strike(), limit.strike(), limit.strike()]).toEqual([false, false, false]);
    now = 999;
    expect(limit.strike()).toBe(true);
  });

  it('forgets bad messages older than the window', () => {
    let now = 0;
    const limit = new BadMessageLimit(2, 1_000, () => now);
    limit.strike();
    limit.strike();
    now = 1_000; // both are a full window old
    expect(limit.strike()).toBe(false);
    now = 1_500;
    expect(limit.strike()).toBe(false);
    now = 1_600;
    expect(limit.strike()).toBe(true);
  });

  it('keeps bounded memory under a flood', () => {
    const limit = new BadMessageLimit(5, 60_000, () => 0);
    for (let i = 0; i < 10_000; i++) limit.strike();
    expect((limit as unknown as { times: number[] }).times.length).toBe(6);
  });
});
