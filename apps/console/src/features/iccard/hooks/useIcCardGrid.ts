import type { GridPage as PageOf } from '@voltdepot/shared-contracts';
import type { GridButton } from '../../../app/grid/GridPage';
import { usePagedGrid, type PagedGridOptions } from '../../../app/grid/useGrid';
import type { QueryParams } from '../../../request';
import { icCardApi, type IcCardExport } from '../api/icCardApi';
import { icCardQueryKeys, type IcCardList } from '../queryKeys';

/** An IC-card list: its pages read through its query key, searched by the filters named. */
export function useIcCardGrid<T, P extends PageOf<T> = PageOf<T>>(
  list: IcCardList,
  fetch: (page: number, size: number, filters: QueryParams, signal: AbortSignal) => Promise<P>,
  options: {
    filters?: PagedGridOptions<T, P>['filters'];
    fixed?: QueryParams;
    /** Keeps lists narrowed differently (a tab's chip) apart in the cache. */
    variant?: string;
  } = {},
) {
  return usePagedGrid<T, P>({
    listKey: options.variant ? [...icCardQueryKeys.list(list), options.variant] : icCardQueryKeys.list(list),
    fetch,
    filters: options.filters,
    fixedFilters: options.fixed,
  });
}

/** The xlsx export of a list as searched, in the user's language. */
export const icCardExportButton = (list: IcCardExport, permission: string, testId?: string): GridButton => ({
  key: 'export',
  permission,
  testId,
  onClick: ({ filters, locale }) => icCardApi.export(list, filters, locale),
});
