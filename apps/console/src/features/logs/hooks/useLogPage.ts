import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiPath } from '@voltdepot/console-api-client';
import type { GridPage } from '@voltdepot/shared-contracts';
import { request } from '../../../request';
import { logsQueryKeys } from '../queryKeys';

/** Spec §9: grid page size 10. */
export const LOG_PAGE_SIZE = 10;

export type LogFilters = { username?: string; success?: 'true' | 'false' };

const paths = {
  operation: (page: number, size: number) => apiPath('LogsController_operations', { page, size }),
  login: (page: number, size: number) => apiPath('LogsController_logins', { page, size }),
};

/** One page of the operation or login log, read through the query cache. */
export function useLogPage<T>(kind: 'operation' | 'login', page: number, filters: LogFilters) {
  return useQuery({
    queryKey: logsQueryKeys.page(kind, page, LOG_PAGE_SIZE, filters),
    queryFn: async ({ signal }) =>
      (await request.get<GridPage<T>>(paths[kind](page, LOG_PAGE_SIZE), { params: filters, signal })) ?? {
        list: [],
        total: 0,
      },
    placeholderData: keepPreviousData,
  });
}
