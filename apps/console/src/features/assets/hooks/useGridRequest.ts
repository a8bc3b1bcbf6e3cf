import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { QueryParams } from '../../../request';
import { assetApi } from '../api/assetApi';
import { assetsQueryKeys } from '../queryKeys';
import type { AssetKind, AssetRow } from '../types';

type ProTableParams = { current?: number; pageSize?: number; keyword?: string } & Record<string, unknown>;

/** The search form's values as query parameters: blanks left out, text trimmed. */
export function filtersOf(params: Record<string, unknown>): QueryParams {
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
 * A ProTable `request` reading through the query cache (server state lives in react-query): a mutation
 * invalidates the grid's key and the table reloads.
 */
export function useGridRequest(kind: AssetKind, fixed: QueryParams = {}) {
  const queryClient = useQueryClient();
  return useCallback(
    async (params: ProTableParams) => {
      const page = params.current ?? 1;
      const size = params.pageSize ?? 10;
      const filters = { ...filtersOf(params), ...fixed };
      try {
        const data = await queryClient.fetchQuery({
          queryKey: assetsQueryKeys.page(kind, { page, size, ...filters }),
          queryFn: ({ signal }) => assetApi.page(kind, page, size, filters, signal),
          staleTime: 0,
        });
        return { data: data.list, total: data.total, success: true };
      } catch {
        // The request layer has shown the server's message.
        return { data: [] as AssetRow[], total: 0, success: false };
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryClient, kind, JSON.stringify(fixed)],
  );
}
