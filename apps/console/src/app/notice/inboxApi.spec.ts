// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import type { InboxPush } from '@voltdepot/shared-contracts';
import { createInboxApi } from './inboxApi';
import { applyInboxPush } from './NoticeProvider';

describe('inbox api', () => {
  it('calls the message centre paths', async () => {
    const get = vi.fn(() => Promise.resolve(undefined));
    const post = vi.fn(() => Promise.resolve(true));
    const api = createInboxApi({ get, post } as never);
    const range = { start: '2026-01-01 00:00:00', end: '2026-01-01 23:59:59' };
    expect(await api.page(2, 10, range)).toEqual({ list: [], total: 0 });
    expect(get).toHaveBeenCalledWith('/ms/m1/msg/inbox/page/2/size/10', { params: range, signal: undefined });
    expect(await api.unread()).toEqual([]);
    expect(get).toHaveBeenLastCalledWith('/ms/m1/msg/inbox/unread');
    await api.markRead([1, 2]);
    expect(post).toHaveBeenLastCalledWith('/ms/m1/msg/inbox/read', [1, 2]);
    await api.markAllRead();
    expect(post).toHaveBeenLastCalledWith('/ms/m1/msg/inbox/read/all');
    expect(await api.remove([3])).toBe(true);
    expect(post).toHaveBeenLastCalledWith('/ms/m1/msg/inbox/del', [3]);
    post.mockResolvedValueOnce(false);
    expect(await api.remove([3])).toBe(false);
  });
});

describe('applyInboxPush', () => {
  const m = (id: number, isRead = false) => ({
    id,
    title: `t${id}`,
    content: '',
    sender: '',
    sendTime: '',
    isRead,
  });
  it('replaces the list on unread and prepends a new message once', () => {
    const unread: InboxPush = { handler: 'inbox.unread', command: 'unread', data: [m(1), m(2, true)] };
    const list = applyInboxPush([m(9)], unread);
    expect(list.map((x) => x.id)).toEqual([1]);
    const added = applyInboxPush(list, { handler: 'inbox.new', command: 'new', data: m(3) });
    expect(added.map((x) => x.id)).toEqual([3, 1]);
    expect(applyInboxPush(added, { handler: 'inbox.new', command: 'new', data: m(3) })).toBe(added);
  });
});
