import { msgPath, type MsgBody, type MsgQuery, type MsgResponse } from '@voltdepot/console-api-client';
import { request as defaultRequest, type RequestClient } from '../../request';

/** Spec §9: grid page size 10. */
export const INBOX_PAGE_SIZE = 10;

export type InboxRange = Required<NonNullable<MsgQuery<'InboxController_page'>>>;
export type InboxMessage = MsgResponse<'InboxController_unread'>[number];
export type InboxPage = MsgResponse<'InboxController_page'>;

/** The message centre's inbox calls (spec §7), typed by its generated client; the request client can be injected. */
export function createInboxApi(request: Pick<RequestClient, 'get' | 'post'> = defaultRequest) {
  return {
    page: async (page: number, size: number, range: InboxRange, signal?: AbortSignal): Promise<InboxPage> =>
      (await request.get<InboxPage>(msgPath('InboxController_page', { page, size }), {
        params: range,
        signal,
      })) ?? { list: [], total: 0 },
    unread: async (): Promise<InboxMessage[]> =>
      (await request.get<MsgResponse<'InboxController_unread'>>(msgPath('InboxController_unread'))) ?? [],
    markRead: (ids: Extract<MsgBody<'InboxController_read'>, number[]>) =>
      request.post<MsgResponse<'InboxController_read'>>(msgPath('InboxController_read'), ids),
    markAllRead: () =>
      request.post<MsgResponse<'InboxController_readAll'>>(msgPath('InboxController_readAll')),
    /** True when something was deleted. */
    remove: async (ids: Extract<MsgBody<'InboxController_del'>, number[]>) =>
      Boolean(await request.post<MsgResponse<'InboxController_del'>>(msgPath('InboxController_del'), ids)),
  };
}

export type InboxApi = ReturnType<typeof createInboxApi>;

export const inboxApi = createInboxApi();

export const inboxQueryKeys = {
  all: ['inbox'] as const,
  page: (page: number, size: number, range: InboxRange) => ['inbox', 'page', page, size, range] as const,
};
