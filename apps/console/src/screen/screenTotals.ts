import type { GridPage, OrganizationNode } from '@voltdepot/shared-contracts';
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

const gridTotal = async (path: string, signal: AbortSignal) =>
  (await request.get<GridPage<unknown>>(path, { signal }))?.total;

/**
 * The depot totals. Organisations, users and price plans come from what the API serves today; the
 * charging figures wait for the station and report areas (the reports work fills them in).
 */
export const SCREEN_TOTALS: readonly ScreenTotal[] = [
  {
    key: 'organizations',
    source: {
      permission: 'sys:org:query',
      load: async (signal) => {
        const tree = await request.get<OrganizationNode[]>('/api/organization/tree', { signal });
        return tree ? countNodes(tree) : undefined;
      },
    },
  },
  {
    key: 'users',
    source: { permission: 'sys:user:query', load: (signal) => gridTotal('/api/user/page/1/size/1', signal) },
  },
  {
    key: 'pricePlans',
    source: {
      permission: 'price_plan:view',
      load: (signal) => gridTotal('/api/pricePlan/page/1/size/1', signal),
    },
  },
  { key: 'stations' },
  { key: 'piles' },
  { key: 'guns' },
  { key: 'chargingNow' },
  { key: 'energyToday' },
];
