import { apiPath, type ApiQuery } from '@voltdepot/console-api-client';
import type { GridPage } from '@voltdepot/shared-contracts';
import { usePagedGrid } from '../../../app/grid/useGrid';
import { request } from '../../../request';
import { logsQueryKeys, type LogKind } from '../queryKeys';

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

/** One log's grid: pages of 10 (spec §9) of what its search form filters by. */
export function useLogGrid<T>(kind: LogKind) {
  return usePagedGrid<T>({
    listKey: logsQueryKeys.list(kind),
    pageKey: (page, size, filters) => logsQueryKeys.page(kind, page, size, filters),
    fetch: (page, size, filters, signal) =>
      request.get<GridPage<T>>(paths[kind](page, size), { params: filters, signal }),
    filters: LOG_FILTERS[kind],
  });
}
