import type { QueryParams } from '../../request';

export type LogKind = 'operation' | 'login';

export const logsQueryKeys = {
  all: ['logs'] as const,
  list: (kind: LogKind) => [...logsQueryKeys.all, kind] as const,
  page: (kind: LogKind, page: number, size: number, filters: QueryParams) =>
    [...logsQueryKeys.all, kind, { page, size, ...filters }] as const,
};
