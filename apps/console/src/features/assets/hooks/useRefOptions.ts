import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { QueryParams } from '../../../request';
import { assetApi, OPTIONS_PAGE_SIZE } from '../api/assetApi';
import { refLabel, type RefSpec } from '../components/fieldModel';
import { assetsQueryKeys } from '../queryKeys';

/** Options of a reference select: up to 500 rows of the referenced grid the user sees, filtered. */
export function useRefOptions(spec: RefSpec | undefined, params: QueryParams | null, enabled = true) {
  const query = useQuery({
    queryKey: assetsQueryKeys.options(spec?.kind ?? 'station', params ?? {}),
    queryFn: ({ signal }) => assetApi.page(spec!.kind, 1, OPTIONS_PAGE_SIZE, params ?? {}, signal),
    enabled: enabled && spec !== undefined && params !== null,
    staleTime: 30_000,
  });
  const options = useMemo(
    () => (query.data?.list ?? []).map((row) => ({ value: row.id, label: refLabel(spec!, row) })),
    [query.data, spec],
  );
  return { options, loading: query.isFetching, rows: query.data?.list ?? [] };
}
