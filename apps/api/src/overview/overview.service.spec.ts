import { businessDayOf, type BusinessDay } from '@voltdepot/server-billing';
import type { LiveFigures } from '@voltdepot/server-monitoring';
import { OverviewService, type OverviewSources } from './overview.service';

const LIVE: LiveFigures = {
  stations: { online: 2, total: 3 },
  piles: { online: 4, total: 6 },
  guns: { online: 7, total: 12, charging: 3 },
  faults: { piles: 1, guns: 2 },
};

function setup(o: Partial<OverviewSources> & { now?: string; zone?: string } = {}) {
  const days: BusinessDay[] = [];
  const service = new OverviewService({
    live: { liveFigures: async () => LIVE },
    orders: {
      ofDay: async (_userId, day) => {
        days.push(day);
        return { count: 5, energyWh: 412_345, revenueFen: 30_199 };
      },
    },
    timeZone: { read: async () => o.zone ?? 'Asia/Shanghai' },
    businessDayOf,
    clock: () => new Date(o.now ?? '2026-05-01T15:59:59Z'),
    ...o,
  });
  return { service, days };
}

describe('OverviewService', () => {
  it('composes the live counts and the orders of the business day the clock is in, in Wh and fen', async () => {
    const { service, days } = setup();
    expect(await service.today(7)).toEqual({
      businessDay: {
        date: '2026-05-01',
        timeZone: 'Asia/Shanghai',
        from: '2026-04-30T16:00:00.000Z',
        to: '2026-05-01T16:00:00.000Z',
      },
      stations: { online: 2, total: 3 },
      piles: { online: 4, total: 6 },
      guns: { online: 7, total: 12, charging: 3 },
      orders: { count: 5, energyWh: 412_345, revenueFen: 30_199 },
      faults: { open: 2, piles: 1, guns: 2 },
    });
    expect(days.map((d) => d.date)).toEqual(['2026-05-01']);
  });

  it('starts a new business day at midnight of the configured zone', async () => {
    const shanghai = setup({ now: '2026-05-01T16:00:00Z' });
    expect((await shanghai.service.today(7)).businessDay.date).toBe('2026-05-02');
    const utc = setup({ now: '2026-05-01T16:00:00Z', zone: 'UTC' });
    expect((await utc.service.today(7)).businessDay).toEqual(
      expect.objectContaining({ date: '2026-05-01', from: '2026-05-01T00:00:00.000Z' }),
    );
  });

  it('takes the open faults from the alarm reader once one is wired', async () => {
    const { service } = setup({
      openFaults: { openFaults: async () => ({ open: 9, piles: 4, guns: 6 }) },
    });
    expect((await service.today(7)).faults).toEqual({ open: 9, piles: 4, guns: 6 });
  });
});
