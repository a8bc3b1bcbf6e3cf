import type { BusinessDay, OrderFigures } from '@voltdepot/server-billing';
import type { LiveFigures } from '@voltdepot/server-monitoring';
import type { TodayOverview } from './overview.dto';

/** What the overview asks of each area (its unit test fakes exactly this). */
export type OverviewSources = {
  /** Monitoring: stations, piles and guns of the caller's scope by live state. */
  live: { liveFigures(userId: number): Promise<LiveFigures> };
  /** Billing: the orders of the caller's scope that stopped within a business day. */
  orders: { ofDay(userId: number, day: BusinessDay): Promise<OrderFigures> };
  /** Identity: the system setting businessTimeZone. */
  timeZone: { read(): Promise<string> };
  /** The business day of an instant in a zone (billing's businessDayOf). */
  businessDayOf(now: Date, timeZone: string): BusinessDay;
  /**
   * Where the open faults come from. Unset today: the piles and guns whose live status is `fault`. The
   * alarm area, once it exists, publishes a reader of the caller's open alarms and the app wires it
   * here; the figure and its link then mean open alarms, with nothing else to change.
   */
  openFaults?: { openFaults(userId: number): Promise<TodayOverview['faults']> };
  clock?: () => Date;
};

/**
 * The home page's figures of the day, composed from the areas' published reads (no table is read
 * here): live counts now, and the orders of the current business day.
 */
export class OverviewService {
  constructor(private readonly sources: OverviewSources) {}

  async today(userId: number): Promise<TodayOverview> {
    const { live, orders, timeZone, openFaults, clock = () => new Date() } = this.sources;
    const day = this.sources.businessDayOf(clock(), await timeZone.read());
    const [figures, ordered, alarms] = await Promise.all([
      live.liveFigures(userId),
      orders.ofDay(userId, day),
      openFaults?.openFaults(userId),
    ]);
    return {
      businessDay: {
        date: day.date,
        timeZone: day.timeZone,
        from: day.from.toISOString(),
        to: day.to.toISOString(),
      },
      stations: figures.stations,
      piles: figures.piles,
      guns: figures.guns,
      orders: ordered,
      faults: alarms ?? { open: figures.faults.guns, ...figures.faults },
    };
  }
}
