import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { GridPage } from '@voltdepot/shared-contracts';
import { useCallback, useRef } from 'react';
import type { QueryParams } from '../../request';

/** What a ProTable passes to its `request`: the page, the page size and the search form's values. */
export type ProTableParams = { current?: number; pageSize?: number } & Record<string, unknown>;

const PAGING_KEYS = new Set(['current', 'pageSize', 'keyword']);

/**
 * A search form's values as query parameters: blanks left out, text trimmed. With `keys`, only those
 * (the filters the api understands); without, every value but the paging ones.
 */
export function filtersOf(params: Record<string, unknown>, keys?: readonly string[]): QueryParams {
  const filters: QueryParams = {};
  for (const key of keys ?? Object.keys(params)) {
    if (!keys && PAGING_KEYS.has(key)) continue;
    const value = params[key];
    if (value === undefined || value === null) continue;
    const text = typeof value === 'string' ? value.trim() : value;
    if (text === '') continue;
    if (typeof text === 'string' || typeof text === 'number' || typeof text === 'boolean')
      filters[key] = text;
  }
  return filters;
}

export type GridRequestOptions<P> = {
  queryKey: (page: number, size: number, filters: QueryParams) => QueryKey;
  fetch: (page: number, size: number, filters: QueryParams, signal: AbortSignal) => Promise<P>;
  /** The search form's values as the api's filters (default: `filtersOf(params)`). */
  filters?: (params: ProTableParams) => QueryParams;
  /** The filters of each search, before it is sent (an export uses the last ones). */
  onFilters?: (filters: QueryParams) => void;
  /** Every answer (e.g. the totals a page carries). */
  onPage?: (page: P) => void;
};

/**
 * A ProTable `request` reading through the query cache (server state lives in react-query): a mutation
 * invalidates the list's keys and the table reloads. A failed request shows an empty page; the request
 * layer has shown the server's message. The options are read when a request runs, so they may be inline.
 */
export function useGridRequest<T, P extends GridPage<T> = GridPage<T>>(options: GridRequestOptions<P>) {
  const queryClient = useQueryClient();
  const latest = useRef(options);
  latest.current = options;
  return useCallback(
    async (params: ProTableParams) => {
      const page = params.current ?? 1;
      const size = params.pageSize ?? 10;
      const { queryKey, fetch, filters: filtersFrom = filtersOf, onFilters, onPage } = latest.current;
      const filters = filtersFrom(params);
      onFilters?.(filters);
      try {
        const data = await queryClient.fetchQuery({
          queryKey: queryKey(page, size, filters),
          queryFn: ({ signal }) => fetch(page, size, filters, signal),
          // A query button press always asks the server; the cache still shares concurrent reads.
          staleTime: 0,
        });
        onPage?.(data);
        return { data: data.list, total: data.total, success: true };
      } catch {
        return { data: [] as T[], total: 0, success: false };
      }
    },
    [queryClient],
  );
}
