import { businessDayOf, OrderFiguresReader } from './order-figures.reader';

describe('businessDayOf', () => {
  it.each([
    // Shanghai is UTC+8: its day starts at 16:00 UTC of the day before.
    ['2026-05-01T15:59:59.999Z', '2026-05-01', '2026-04-30T16:00:00.000Z', '2026-05-01T16:00:00.000Z'],
    ['2026-05-01T16:00:00.000Z', '2026-05-02', '2026-05-01T16:00:00.000Z', '2026-05-02T16:00:00.000Z'],
    ['2026-04-30T16:00:00.000Z', '2026-05-01', '2026-04-30T16:00:00.000Z', '2026-05-01T16:00:00.000Z'],
    // New Year's Eve in UTC is already New Year in Shanghai.
    ['2026-12-31T20:00:00.000Z', '2027-01-01', '2026-12-31T16:00:00.000Z', '2027-01-01T16:00:00.000Z'],
  ])('puts %s in the Shanghai day %s', (now, date, from, to) => {
    const day = businessDayOf(new Date(now), 'Asia/Shanghai');
    expect({ date: day.date, from: day.from.toISOString(), to: day.to.toISOString() }).toEqual({
      date,
      from,
      to,
    });
    expect(day.timeZone).toBe('Asia/Shanghai');
  });

  it('follows the configured zone, not the server clock', () => {
    const day = businessDayOf(new Date('2026-05-01T20:00:00Z'), 'UTC');
    expect([day.date, day.from.toISOString(), day.to.toISOString()]).toEqual([
      '2026-05-01',
      '2026-05-01T00:00:00.000Z',
      '2026-05-02T00:00:00.000Z',
    ]);
  });

  it('makes a day with a DST change 23 hours long', () => {
    // Europe/Berlin springs forward on 2026-03-29.
    const day = businessDayOf(new Date('2026-03-29T12:00:00Z'), 'Europe/Berlin');
    expect(day.to.getTime() - day.from.getTime()).toBe(23 * 3_600_000);
    expect(day.from.toISOString()).toBe('2026-03-28T23:00:00.000Z');
  });
});

describe('OrderFiguresReader', () => {
  it("reads the orders of the caller's scope that stopped within the day, amounts as integer fen", async () => {
    const calls: unknown[][] = [];
    const reader = new OrderFiguresReader(
      {
        figuresStoppedIn: async (...args) => {
          calls.push(args);
          return { count: 3, energyWh: 123_456, totalFen: 98_765 };
        },
      },
      { scopeOf: async (userId) => ({ pathPatterns: [`/${userId}/%`] }) },
    );
    const day = businessDayOf(new Date('2026-05-01T03:00:00Z'), 'Asia/Shanghai');
    await expect(reader.ofDay(7, day)).resolves.toEqual({ count: 3, energyWh: 123_456, revenueFen: 98_765 });
    expect(calls).toEqual([[{ pathPatterns: ['/7/%'] }, day.from, day.to]]);
  });
});
