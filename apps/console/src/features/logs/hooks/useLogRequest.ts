import { apiPath, type ApiQuery } from '@voltdepot/console-api-client';
import type { GridPage } from '@voltdepot/shared-contracts';
import { filtersOf, useGridRequest, type ProTableParams } from '../../../app/grid/useGridRequest';
import { request, type QueryParams } from '../../../request';
import { logsQueryKeys, type LogKind } from '../queryKeys';

/** Spec §9: grid page size 10. */
export const LOG_PAGE_SIZE = 10;

/** The methods the operation log records (reads are not logged). */
export const LOG_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const satisfies readonly NonNullable<
  ApiQuery<'LogsController_operations'>['method']
>[];

/** The filters each log's api understands (libs/server/identity logs.controller.ts). */
export const LOG_FILTERS: Record<LogKind, readonly string[]> = {
  operation: ['start', 'end', 'username', 'method', 'path', 'success'],
  login: ['start', 'end', 'username', 'success'],
};

const paths = {
  operation: (page: number, size: number) => apiPath('LogsController_operations', { page, size }),
  login: (page: number, size: number) => apiPath('LogsController_logins', { page, size }),
};

/** One log's page as a ProTable `request`, read through the query cache. */
export function useLogRequest<T>(kind: LogKind, onFilters?: (filters: QueryParams) => void) {
  return useGridRequest<T>({
    queryKey: (page, size, filters) => logsQueryKeys.page(kind, page, size, filters),
    fetch: async (page, size, filters, signal) =>
      (await request.get<GridPage<T>>(paths[kind](page, size), { params: filters, signal })) ?? {
        list: [],
        total: 0,
      },
    filters: (params: ProTableParams) => filtersOf(params, LOG_FILTERS[kind]),
    onFilters,
  });
}
