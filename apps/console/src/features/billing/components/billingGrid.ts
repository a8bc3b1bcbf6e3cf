import type { GridPage as PageOf } from '@voltdepot/shared-contracts';
import type { GridButton } from '../../../app/grid/GridPage';
import { usePagedGrid } from '../../../app/grid/useGrid';
import type { QueryParams } from '../../../request';
import { billingQueryKeys, type BillingList } from '../queryKeys';

/** Where a billing list's detail page is (the spec's session detail under /report/components/). */
export const orderDetailPath = (id: number) => `/report/components/session?id=${id}`;

/**
 * A billing list: its pages read through its query key. A session list (orders, occupation fees,
 * reservations, the operation log) is searched by the filters named, 20 rows a page.
 */
export function useBillingGrid<T, P extends PageOf<T> = PageOf<T>>(
  list: BillingList,
  fetch: (page: number, size: number, filters: QueryParams, signal: AbortSignal) => Promise<P>,
  search?: { filters: readonly string[]; fixed?: QueryParams },
) {
  return usePagedGrid<T, P>({
    listKey: billingQueryKeys.list(list),
    fetch,
    filters: search?.filters,
    fixedFilters: search?.fixed,
    searchForm: search !== undefined,
    pageSize: search ? 20 : 10,
  });
}

/** The xlsx export of a list as searched (billing's exports take the filters and the language). */
export const exportButton = (
  permission: string,
  testId: string | undefined,
  run: (filters: QueryParams, lang: string) => Promise<string | undefined>,
): GridButton => ({
  key: 'export',
  permission,
  testId,
  onClick: ({ filters, locale }) => run(filters, locale),
});
