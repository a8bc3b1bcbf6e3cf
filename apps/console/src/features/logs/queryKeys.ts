import type { LogFilters } from './hooks/useLogPage';

export const logsQueryKeys = {
  all: ['logs'] as const,
  page: (kind: 'operation' | 'login', page: number, size: number, filters: LogFilters) =>
    [...logsQueryKeys.all, kind, { page, size, ...filters }] as const,
};
