import { QueryClient } from '@tanstack/react-query';

/** Server state lives here only. The request layer already shows errors, so queries do not retry them. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}
