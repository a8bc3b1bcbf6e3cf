import { keepPreviousData, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { GridPage } from '@voltdepot/shared-contracts';
import { useCallback, useMemo, useRef, useState } from 'react';
import type { QueryParams } from '../../request';

/** Spec §9: grids show pages of 10 unless a list says otherwise. */
export const GRID_PAGE_SIZE = 10;

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

/** A list read page by page from the server (`{ list, total }`, the page carrying what else it has). */
export type PagedGrid<T, P extends GridPage<T> = GridPage<T>> = {
  kind: 'pages';
  rows: T[];
  total: number;
  /** The whole answer of the shown page (totals, summaries); undefined before the first. */
  data: P | undefined;
  loading: boolean;
  page: number;
  pageSize: number;
  changePage: (page: number, pageSize: number) => void;
  /** The filters of the shown rows (what an export sends), the fixed ones included. */
  filters: QueryParams;
  /** Whether the list has a search form (then the first read waits for its initial values). */
  searchForm: boolean;
  /** The search form was submitted (or reset) with these values. */
  search: (values: Record<string, unknown>) => void;
  /** Reads the list again (after a change): every cached page of it is invalidated. */
  reload: () => Promise<void>;
  listKey: QueryKey;
};

/** A list whose rows come whole (a tree, a short table): no pages, searched in the browser. */
export type RowsGrid<T> = {
  kind: 'rows';
  rows: T[];
  loading: boolean;
  reload: () => Promise<void>;
  listKey: QueryKey;
};

export type Grid<T> = PagedGrid<T, GridPage<T>> | RowsGrid<T>;

export type PagedGridOptions<T, P extends GridPage<T>> = {
  /** Every key of this list starts with it (what reload and mutations invalidate). */
  listKey: QueryKey;
  /** One page's key (default: listKey + 'page' + page, size and filters). */
  pageKey?: (page: number, size: number, filters: QueryParams) => QueryKey;
  /** Reads one page; no answer (the request layer showed why) is an empty page. */
  fetch: (page: number, size: number, filters: QueryParams, signal: AbortSignal) => Promise<P | undefined>;
  /** The filters the api understands (their names), or how the form's values become them. */
  filters?: readonly string[] | ((values: Record<string, unknown>) => QueryParams);
  /** Filters every read carries (e.g. the abnormal orders' `held`). */
  fixedFilters?: QueryParams;
  pageSize?: number;
  /** The list has a search form (default true). */
  searchForm?: boolean;
  /** Re-read while shown, e.g. a monitoring list (ms). */
  refetchInterval?: number;
};

/** No rows yet (one array, so what depends on the rows does not change on every render). */
const NO_ROWS: never[] = [];

/** What ProTable adds to a search form's values besides the fields. */
const FORM_EXTRAS = ['_timestamp', 'current', 'pageSize'];

/** The api's filters from a search form's values. */
export function searchFilters(
  values: Record<string, unknown>,
  filters: PagedGridOptions<unknown, GridPage<unknown>>['filters'],
): QueryParams {
  const fields = Object.fromEntries(Object.entries(values).filter(([key]) => !FORM_EXTRAS.includes(key)));
  if (typeof filters === 'function') return filters(fields);
  return filtersOf(fields, filters);
}

const sameFilters = (a: QueryParams, b: QueryParams) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A paged list's server state, in react-query only: the shown page is a query (the previous page stays on
 * screen while the next one loads), so a mutation's invalidation or a pushed update shows at once. Pressing
 * query with unchanged filters asks the server again.
 */
export function usePagedGrid<T, P extends GridPage<T> = GridPage<T>>(
  options: PagedGridOptions<T, P>,
): PagedGrid<T, P> {
  const queryClient = useQueryClient();
  const searchForm = options.searchForm ?? true;
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(options.pageSize ?? GRID_PAGE_SIZE);
  // Until the search form hands over its initial values (a default period, say), nothing is read.
  const [formFilters, setFormFilters] = useState<QueryParams | undefined>(searchForm ? undefined : {});
  const { listKey, fixedFilters, filters: filterSpec } = options;
  const filters = useMemo(() => ({ ...formFilters, ...fixedFilters }), [formFilters, fixedFilters]);
  const pageKey = options.pageKey ?? ((p, s, f) => [...listKey, 'page', { page: p, size: s, ...f }]);
  const query = useQuery({
    queryKey: pageKey(page, pageSize, filters),
    queryFn: async ({ signal }) => (await options.fetch(page, pageSize, filters, signal)) ?? null,
    enabled: formFilters !== undefined,
    placeholderData: keepPreviousData,
    // A list shows what the server has now when it is opened.
    staleTime: 0,
    refetchInterval: options.refetchInterval,
  });
  // Read by search(), which the form calls from its own handlers.
  const shown = useRef({ formFilters, page, refetch: query.refetch });
  shown.current = { formFilters, page, refetch: query.refetch };

  const search = useCallback(
    (values: Record<string, unknown>) => {
      const next = searchFilters(
        values,
        filterSpec as PagedGridOptions<unknown, GridPage<unknown>>['filters'],
      );
      const current = shown.current;
      if (current.formFilters !== undefined && sameFilters(current.formFilters, next)) {
        // The same search again: a query button press always asks the server.
        if (current.page === 1) void current.refetch();
        else setPage(1);
        return;
      }
      setFormFilters(next);
      setPage(1);
    },
    [filterSpec],
  );
  const changePage = useCallback((nextPage: number, nextSize: number) => {
    setPage(nextPage);
    setPageSize(nextSize);
  }, []);
  const reload = useCallback(
    () => queryClient.invalidateQueries({ queryKey: listKey }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryClient, JSON.stringify(listKey)],
  );

  const data = query.data ?? undefined;
  return {
    kind: 'pages',
    rows: data?.list ?? NO_ROWS,
    total: data?.total ?? 0,
    data,
    loading: query.isFetching,
    page,
    pageSize,
    changePage,
    filters,
    searchForm,
    search,
    reload,
    listKey,
  };
}

/** A whole list (a tree) from its query: the grid shows it and reload invalidates it. */
export function useRowsGrid<T>(
  listKey: QueryKey,
  query: { data: readonly T[] | undefined; isFetching: boolean },
): RowsGrid<T> {
  const queryClient = useQueryClient();
  const reload = useCallback(
    () => queryClient.invalidateQueries({ queryKey: listKey }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryClient, JSON.stringify(listKey)],
  );
  return {
    kind: 'rows',
    rows: (query.data ?? NO_ROWS) as T[],
    loading: query.isFetching,
    reload,
    listKey,
  };
}
