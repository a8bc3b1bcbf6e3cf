import type { TodayOverview } from '@voltdepot/console-api-client';
import { formatKwh, formatYuan } from '../../app/format/money';

export const STATION_MONITOR = '/operation/stationMonitor';
export const PILE_MONITOR = '/operation/pileMonitor';
export const ORDER_QUERY = '/operation/orderManage/orderQuery';

/**
 * The order query over the business day: from its start to its last second (the order query's end is
 * inclusive), as instants.
 */
export function ordersOfDay(day: TodayOverview['businessDay']): string {
  const end = new Date(Date.parse(day.to) - 1000).toISOString();
  return `${ORDER_QUERY}?${new URLSearchParams({ start: day.from, end }).toString()}`;
}

export type FigureKey = 'stations' | 'guns' | 'charging' | 'energy' | 'revenue' | 'faults';

export type Figure = {
  key: FigureKey;
  value: string;
  /** Where the detail is (a path the user may or may not be allowed to open). */
  to: string;
  /** The page the link opens, for the permission check. */
  page: string;
};

/**
 * The cards of the home page, in order. Open faults are the piles' and guns' live fault states today and
 * link to the pile monitor; when the alarm area exists they become its open alarms and link there.
 */
export function figuresOf(o: TodayOverview): Figure[] {
  const orders = ordersOfDay(o.businessDay);
  return [
    {
      key: 'stations',
      value: `${o.stations.online} / ${o.stations.total}`,
      to: STATION_MONITOR,
      page: STATION_MONITOR,
    },
    { key: 'guns', value: `${o.guns.online} / ${o.guns.total}`, to: PILE_MONITOR, page: PILE_MONITOR },
    {
      key: 'charging',
      value: String(o.guns.charging),
      to: `${PILE_MONITOR}?gunStatus=charging`,
      page: PILE_MONITOR,
    },
    { key: 'energy', value: formatKwh(o.orders.energyWh), to: orders, page: ORDER_QUERY },
    { key: 'revenue', value: formatYuan(o.orders.revenueFen), to: orders, page: ORDER_QUERY },
    {
      key: 'faults',
      value: String(o.faults.open),
      to: `${PILE_MONITOR}?gunStatus=fault`,
      page: PILE_MONITOR,
    },
  ];
}
