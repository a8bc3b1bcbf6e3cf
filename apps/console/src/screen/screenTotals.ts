import {
  apiPath,
  type ApiResponse,
  type MonitorStationSummary,
  type OrganizationNode,
} from '@voltdepot/console-api-client';
import { MONITOR_PERMISSIONS } from '@voltdepot/shared-contracts';
import { businessTimeZone, todayRange as businessTodayRange } from '../app/format/businessTime';
import { formatInstant } from '../app/format/formatDateTime';
import { request } from '../request';

/** A figure of the big screen: live from an API, or a placeholder until its data source exists. */
export type ScreenTotal = {
  key: TotalKey;
  /** The API call, with the permission it needs; none for a placeholder. */
  source?: { permission: string; load: (signal: AbortSignal) => Promise<number | undefined> };
};

export type TotalKey =
  'organizations' | 'users' | 'pricePlans' | 'stations' | 'piles' | 'guns' | 'chargingNow' | 'energyToday';

export function countNodes(nodes: readonly OrganizationNode[]): number {
  return nodes.reduce((sum, node) => sum + 1 + countNodes(node.children ?? []), 0);
}

type GridOperation =
  | 'UsersController_page'
  | 'PricePlansController_page'
  | 'StationController_page'
  | 'PileController_page'
  | 'GunController_page';

/** The total of a grid operation, read as page 1 of size 1. */
const gridTotal = async (id: GridOperation, signal: AbortSignal) =>
  (await request.get<ApiResponse<GridOperation>>(apiPath(id, { page: 1, size: 1 }), { signal }))?.total;

/** Guns charging now, over every station of the caller's scope (the monitor's map markers). */
export function chargingGuns(stations: readonly Pick<MonitorStationSummary, 'guns'>[]): number {
  return stations.reduce((sum, station) => sum + (station.guns.charging ?? 0), 0);
}

/**
 * Today in the business time zone (the platform setting) as the order query's start and end: instants
 * with the business offset, 00:00:00 to 23:59:59 inclusive, whatever the browser's zone.
 */
export function todayRange(now: Date, timeZone: string = businessTimeZone()): { start: string; end: string } {
  const [start, end] = businessTodayRange(now.getTime(), timeZone);
  return { start: formatInstant(start, timeZone), end: formatInstant(end, timeZone) };
}

/** Wh as kWh with one decimal (the tile's unit). */
export function kilowattHours(wh: number): number {
  return Math.round(wh / 100) / 10;
}

/**
 * The depot totals: each tile reads an API of the areas that exist, with the permission that API
 * checks (the basic-data grids' `<menu>:query`, the station monitor, the order query).
 * Energy today is the energy of the charging orders that stopped today (the order query's totals).
 */
export const SCREEN_TOTALS: readonly ScreenTotal[] = [
  {
    key: 'organizations',
    source: {
      permission: 'sys:org:query',
      load: async (signal) => {
        const tree = await request.get<ApiResponse<'OrganizationsController_tree'>>(
          apiPath('OrganizationsController_tree'),
          {
            signal,
          },
        );
        return tree ? countNodes(tree) : undefined;
      },
    },
  },
  {
    key: 'users',
    source: { permission: 'sys:user:query', load: (signal) => gridTotal('UsersController_page', signal) },
  },
  {
    key: 'pricePlans',
    source: {
      permission: 'price_plan:view',
      load: (signal) => gridTotal('PricePlansController_page', signal),
    },
  },
  {
    key: 'stations',
    source: {
      permission: 'basic:station:query',
      load: (signal) => gridTotal('StationController_page', signal),
    },
  },
  {
    key: 'piles',
    source: { permission: 'basic:host:query', load: (signal) => gridTotal('PileController_page', signal) },
  },
  {
    key: 'guns',
    source: { permission: 'basic:gun:query', load: (signal) => gridTotal('GunController_page', signal) },
  },
  {
    key: 'chargingNow',
    source: {
      permission: MONITOR_PERMISSIONS.station,
      load: async (signal) => {
        const stations = await request.get<ApiResponse<'MonitoringController_stations'>>(
          apiPath('MonitoringController_stations'),
          { signal },
        );
        return stations ? chargingGuns(stations) : undefined;
      },
    },
  },
  {
    key: 'energyToday',
    source: {
      permission: 'charging_order:view',
      load: async (signal) => {
        const page = await request.get<ApiResponse<'OrdersQueryController_page'>>(
          apiPath('OrdersQueryController_page', { page: 1, size: 1 }),
          {
            params: todayRange(new Date()),
            signal,
          },
        );
        return page?.totals ? kilowattHours(page.totals.energyWh) : undefined;
      },
    },
  },
];
