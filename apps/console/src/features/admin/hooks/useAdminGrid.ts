import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { GridPage } from '@voltdepot/shared-contracts';
import { useCallback } from 'react';
import type { QueryParams } from '../../../request';

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
 * A ProTable `request` that reads through the query cache (server state lives in react-query), so a
 * mutation that invalidates the area's key makes the next reload fetch again. Also returns the filters
 * last searched with (the export uses them).
 */
export function useAdminGrid<T>(
  keyOf: (params: Record<string, unknown>) => QueryKey,
  fetchPage: (page: number, size: number, filters: QueryParams, signal?: AbortSignal) => Promise<GridPage<T>>,
  onFilters?: (filters: QueryParams) => void,
) {
  const queryClient = useQueryClient();
  return useCallback(
    async (params: ProTableParams) => {
      const page = params.current ?? 1;
      const size = params.pageSize ?? 10;
      const filters = filtersOf(params);
      onFilters?.(filters);
      try {
        const data = await queryClient.fetchQuery({
          queryKey: keyOf({ page, size, ...filters }),
          queryFn: ({ signal }) => fetchPage(page, size, filters, signal),
          staleTime: 0,
        });
        return { data: data.list, total: data.total, success: true };
      } catch {
        // The request layer has shown the server's message already.
        return { data: [] as T[], total: 0, success: false };
      }
    },
    [queryClient, keyOf, fetchPage, onFilters],
  );
}
