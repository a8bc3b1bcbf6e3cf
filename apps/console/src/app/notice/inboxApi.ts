import type { GridPage, InboxMessageDto } from '@voltdepot/shared-contracts';
import { request as defaultRequest, type RequestClient } from '../../request';

const BASE = '/ms/m1/msg/inbox';

/** Spec §9: grid page size 10. */
export const INBOX_PAGE_SIZE = 10;

export type InboxRange = { start: string; end: string };

/** The message centre's inbox calls (spec §7); the request client can be injected. */
export function createInboxApi(request: Pick<RequestClient, 'get' | 'post'> = defaultRequest) {
  return {
    page: async (page: number, size: number, range: InboxRange, signal?: AbortSignal) =>
      (await request.get<GridPage<InboxMessageDto>>(`${BASE}/page/${page}/size/${size}`, {
        params: range,
        signal,
      })) ?? { list: [], total: 0 },
    unread: async () => (await request.get<InboxMessageDto[]>(`${BASE}/unread`)) ?? [],
    markRead: (ids: number[]) => request.post<{ updated: number }>(`${BASE}/read`, ids),
    markAllRead: () => request.post<{ updated: number }>(`${BASE}/read/all`),
    /** True when something was deleted. */
    remove: async (ids: number[]) => Boolean(await request.post<boolean>(`${BASE}/del`, ids)),
  };
}

export type InboxApi = ReturnType<typeof createInboxApi>;

export const inboxApi = createInboxApi();

export const inboxQueryKeys = {
  all: ['inbox'] as const,
  page: (page: number, size: number, range: InboxRange) => ['inbox', 'page', page, size, range] as const,
};
