import { useQueryClient } from '@tanstack/react-query';
import type { GridPage } from '@voltdepot/shared-contracts';
import { useCallback } from 'react';
import type { QueryParams } from '../../../request';
import { msgQueryKeys, type MsgResource } from '../queryKeys';

type ProTableParams = { current?: number; pageSize?: number; keyword?: string } & Record<string, unknown>;

/** The filters of a ProTable search form as query values: blanks left out, text trimmed. */
export function filtersOf(params: ProTableParams): QueryParams {
  const filters: QueryParams = {};
  for (const [key, value] of Object.entries(params)) {
    if (key === 'current' || key === 'pageSize' || key === 'keyword') continue;
    if (value === undefined || value === null) continue;
    const text = typeof value === 'string' ? value.trim() : value;
    if (text === '') continue;
    if (typeof text === 'string' || typeof text === 'number' || typeof text === 'boolean')
      filters[key] = text;
  }
  return filters;
}

/**
 * A ProTable `request` that reads through the query cache (conventions: server state lives in react-query),
 * so a mutation that invalidates the resource's key makes the next reload fetch again.
 */
export function useGridRequest<T>(
  resource: MsgResource,
  fetchPage: (page: number, size: number, filters: QueryParams, signal?: AbortSignal) => Promise<GridPage<T>>,
) {
  const queryClient = useQueryClient();
  return useCallback(
    async (params: ProTableParams) => {
      const page = params.current ?? 1;
      const size = params.pageSize ?? 10;
      const filters = filtersOf(params);
      try {
        const data = await queryClient.fetchQuery({
          queryKey: msgQueryKeys.page(resource, { page, size, ...filters }),
          queryFn: ({ signal }) => fetchPage(page, size, filters, signal),
          // A query button press always asks the server; the cache still shares concurrent reads.
          staleTime: 0,
        });
        return { data: data.list, total: data.total, success: true };
      } catch {
        // The request layer has shown the server's message already.
        return { data: [] as T[], total: 0, success: false };
      }
    },
    [queryClient, resource, fetchPage],
  );
}
