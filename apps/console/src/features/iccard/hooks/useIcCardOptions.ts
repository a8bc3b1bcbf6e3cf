import { useQuery } from '@tanstack/react-query';
import { icCardApi } from '../api/icCardApi';
import { icCardQueryKeys } from '../queryKeys';

export type Option = { value: number; label: string };

/** The companies and the groups (customers of client type 2) a form chooses from (the first 500). */
export function useIcCardOptions(name: 'companies' | 'groups', enabled = true) {
  const query = useQuery({
    queryKey: icCardQueryKeys.options(name),
    enabled,
    staleTime: 60_000,
    queryFn: async ({ signal }): Promise<Option[]> => {
      if (name === 'companies') {
        const page = await icCardApi.companies(1, 500, {}, signal);
        return page.list.map((c) => ({ value: c.id, label: `${c.name} (${c.number})` }));
      }
      const page = await icCardApi.customers(1, 500, { clientType: '2' }, signal);
      return page.list.map((c) => ({ value: c.id, label: c.userName }));
    },
  });
  return query.data ?? [];
}
