import type { DataSource } from 'typeorm';
import { instantOf, localDay } from '../pricing/business-time';
import type { BillingDataScopeProvider } from '../shared/data-scope';
import { ChargingOrderQueryRepository } from './charging-order-query.repository';

/** A calendar day of the business time zone: `from` inclusive, `to` (the next day's start) exclusive. */
export type BusinessDay = { date: string; timeZone: string; from: Date; to: Date };

/**
 * The business day `now` falls in, in `timeZone` (default Asia/Shanghai): 2026-05-01T15:59:59Z is still
 * 1 May in Shanghai, 16:00Z is 2 May. Days are found by wall clock, so a DST day is 23 or 25 hours.
 */
export function businessDayOf(now: Date, timeZone: string): BusinessDay {
  const day = localDay(now.getTime(), timeZone);
  return {
    date: new Date(day * 86_400_000).toISOString().slice(0, 10),
    timeZone,
    from: new Date(instantOf(day, 0, timeZone)),
    to: new Date(instantOf(day + 1, 0, timeZone)),
  };
}

/** Orders of a period: how many, their energy (integer Wh) and their amount (integer fen). */
export type OrderFigures = { count: number; energyWh: number; revenueFen: number };

/**
 * Billing's published read of order figures for other areas' screens (the home page's figures of the
 * day): the orders of the caller's data scope that stopped in a period, counted as the order query's
 * totals count them.
 */
export class OrderFiguresReader {
  constructor(
    private readonly orders: Pick<ChargingOrderQueryRepository, 'figuresStoppedIn'>,
    private readonly scopes: BillingDataScopeProvider,
  ) {}

  static over(db: DataSource, scopes: BillingDataScopeProvider): OrderFiguresReader {
    return new OrderFiguresReader(new ChargingOrderQueryRepository(db), scopes);
  }

  async ofDay(userId: number, day: BusinessDay): Promise<OrderFigures> {
    const { count, energyWh, totalFen } = await this.orders.figuresStoppedIn(
      await this.scopes.scopeOf(userId),
      day.from,
      day.to,
    );
    return { count, energyWh, revenueFen: totalFen };
  }
}
