import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { GridPage } from '@voltdepot/shared-contracts';
import { useCallback, useRef } from 'react';

export type ProTableParams = { current?: number; pageSize?: number } & Record<string, unknown>;

/**
 * A ProTable `request` reading through the query cache (server state lives in react-query): a
 * mutation invalidates the list's keys and the table reloads. `onPage` sees every answer (e.g. totals).
 */
export function useTableRequest<T, P extends GridPage<T> = GridPage<T>>(
  key: (page: number, size: number, params: ProTableParams) => QueryKey,
  fetch: (page: number, size: number, params: ProTableParams, signal: AbortSignal) => Promise<P>,
  onPage?: (page: P) => void,
) {
  const queryClient = useQueryClient();
  const latest = useRef({ key, fetch, onPage });
  latest.current = { key, fetch, onPage };
  return useCallback(
    async (params: ProTableParams) => {
      const page = params.current ?? 1;
      const size = params.pageSize ?? 10;
      const { key: keyOf, fetch: load, onPage: seen } = latest.current;
      try {
        const data = await queryClient.fetchQuery({
          queryKey: keyOf(page, size, params),
          queryFn: ({ signal }) => load(page, size, params, signal),
          staleTime: 0,
        });
        seen?.(data);
        return { data: data.list, total: data.total, success: true };
      } catch {
        // The request layer has shown the server's message.
        return { data: [] as T[], total: 0, success: false };
      }
    },
    [queryClient],
  );
}
