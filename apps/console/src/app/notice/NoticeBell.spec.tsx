import { act, fireEvent } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDate } from '../format/formatDateTime';
import { signedInApi, stubApi } from '../../test/fakeApi';
import { fakeStomp, type FakeStomp } from '../../test/fakeStomp';
import { waitFor } from '../../test/render';
import { renderConsole } from '../../test/renderConsole';

const message = (id: number, isRead = false) => ({
  id,
  title: `Title ${id}`,
  content: `Content ${id}`,
  sender: 'system',
  sendTime: '2026-03-01 08:00:00',
  isRead,
});

/** Sends a body on every subscription to the topic, as the broker would. */
function deliver(stomp: FakeStomp, topic: string, body: unknown) {
  return act(async () =>
    stomp.subscriptions
      .filter((s) => s.destination === topic)
      .forEach((s) => s.deliver(JSON.stringify(body))),
  );
}

const INBOX_TOPIC = '/user/topic/m1/msg/inbox';

async function setup(platform: Record<string, unknown> = {}, routes: Parameters<typeof stubApi>[0] = {}) {
  const api = stubApi(
    signedInApi(undefined, undefined, {
      'GET /ms/m1/msg/inbox/unread': () => [message(1), message(2)],
      'POST /ms/m1/msg/inbox/read': () => ({ updated: 1 }),
      'POST /ms/m1/msg/inbox/read/all': () => ({ updated: 2 }),
      'POST /ms/m1/msg/inbox/del': () => true,
      'GET /ms/m1/msg/inbox/page/1/size/10': () => ({ list: [message(1), message(3, true)], total: 2 }),
      ...routes,
    }),
  );
  const stomp = fakeStomp();
  const result = await renderConsole('/home', { platform: { noticeIcon: true, ...platform } });
  await waitFor(() => expect(stomp.configs.length).toBeGreaterThan(0));
  await act(async () => stomp.connect());
  return { ...result, ...api, stomp };
}

const bell = () => document.querySelector('button[aria-label="Notifications"]') as HTMLButtonElement;

/** Opens the inbox dialog from the bell ("view more") and returns its rows' checkboxes. */
async function openInbox(): Promise<NodeListOf<HTMLInputElement>> {
  fireEvent.click(bell());
  await waitFor(() => expect(document.body.textContent).toContain('View more'));
  const viewMore = [...document.querySelectorAll('button')].find((b) => b.textContent === 'View more');
  fireEvent.click(viewMore as HTMLButtonElement);
  await waitFor(() => expect(document.body.textContent).toContain('Content 3'));
  return document.querySelectorAll('.ant-modal tbody input[type="checkbox"]');
}

describe('notice bell and inbox', () => {
  it('asks for unread on connect, shows the count, opens a notice and marks it read', async () => {
    const { calls, stomp } = await setup();
    expect(calls.some((c) => c.method === 'GET' && c.path === '/ms/m1/msg/inbox/unread')).toBe(true);
    await waitFor(() => expect(bell().textContent).toContain('2'));

    fireEvent.click(bell());
    await waitFor(() => expect(document.body.textContent).toContain('In-app message'));
    expect(document.body.textContent).toContain('Title 1');
    expect(document.body.textContent).toContain('View more');

    fireEvent.click(document.querySelector('[data-testid="notice-item"]') as HTMLElement);
    await waitFor(() => expect(document.querySelector('[data-testid="notice-alert"]')).not.toBeNull());
    const alert = document.querySelector('[data-testid="notice-alert"]')?.textContent ?? '';
    expect(alert).toContain('Content 1');
    expect(alert).toContain('system');
    expect(alert).toContain('2026-03-01 08:00:00');
    await waitFor(() => expect(calls.find((c) => c.path === '/ms/m1/msg/inbox/read')?.body).toEqual([1]));
    await waitFor(() => expect(bell().textContent).toContain('1'));

    // a new message pushed on the inbox topic
    await deliver(stomp, INBOX_TOPIC, { handler: 'inbox.new', command: 'new', data: message(5) });
    await waitFor(() => expect(bell().textContent).toContain('2'));
  });

  it("'View more' opens the inbox for today; mark all read without a selection, once on a double click", async () => {
    const { calls } = await setup();
    fireEvent.click(bell());
    await waitFor(() => expect(document.body.textContent).toContain('View more'));
    const viewMore = [...document.querySelectorAll('button')].find((b) => b.textContent === 'View more');
    fireEvent.click(viewMore as HTMLButtonElement);
    await waitFor(() => expect(document.body.textContent).toContain('Content 3'));
    const page = calls.find((c) => c.path === '/ms/m1/msg/inbox/page/1/size/10');
    // Today of the business time zone (Asia/Shanghai by default), not the browser's.
    const today = formatDate(Date.now(), 'Asia/Shanghai');
    expect(page?.query.get('start')).toBe(`${today} 00:00:00`);
    expect(page?.query.get('end')).toBe(`${today} 23:59:59`);
    // Every call says the console's language.
    expect(page?.headers.get('Accept-Language')).toBe('en-US');
    expect(document.body.textContent).toContain('Unread');

    const del = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Delete');
    expect(del?.disabled).toBe(true);
    const markAll = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Mark all read');
    fireEvent.click(markAll as HTMLButtonElement);
    fireEvent.click(markAll as HTMLButtonElement);
    await waitFor(() => expect(document.body.textContent).toContain('Operation successful'));
    expect(calls.filter((c) => c.method === 'POST' && c.path === '/ms/m1/msg/inbox/read/all')).toHaveLength(
      1,
    );
  });

  it('still closes on Escape after "mark read" (focus stays in the dialog)', async () => {
    const { calls } = await setup();
    const boxes = await openInbox();
    fireEvent.click(boxes[0] as HTMLInputElement);
    await waitFor(() => expect(document.querySelector('[data-testid="inbox-mark-read"]')).not.toBeNull());
    const markRead = document.querySelector('[data-testid="inbox-mark-read"]') as HTMLButtonElement;
    markRead.focus();
    fireEvent.click(markRead);
    // Chromium moves the focus of a button that becomes disabled (the click guard) to <body>; jsdom does not.
    const elsewhere = document.body.appendChild(document.createElement('input'));
    elsewhere.focus();
    elsewhere.remove();
    await waitFor(() => expect(document.body.textContent).toContain('Operation successful'));
    expect(calls.find((c) => c.path === '/ms/m1/msg/inbox/read')?.body).toEqual([1]);
    await waitFor(() => expect(document.querySelector('[data-testid="inbox-mark-all-read"]')).not.toBeNull());

    await waitFor(() =>
      expect(document.querySelector('.ant-modal-wrap')?.contains(document.activeElement)).toBe(true),
    );
    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape', keyCode: 27 });
    await waitFor(() => expect(document.querySelector('.ant-modal tbody')).toBeNull());
  });

  it('deletes the ticked rows after the confirmation', async () => {
    const { calls } = await setup();
    const boxes = await openInbox();
    fireEvent.click(boxes[1] as HTMLInputElement);
    await waitFor(() =>
      expect([...document.querySelectorAll('button')].some((b) => b.textContent === 'Mark read')).toBe(true),
    );
    const del = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Delete');
    expect(del?.disabled).toBe(false);
    fireEvent.click(del as HTMLButtonElement);
    await waitFor(() => expect(document.body.textContent).toContain('Sure you want to delete these data?'));
    const ok = [...document.querySelectorAll('.ant-modal-confirm button')].find(
      (b) => b.textContent === 'OK',
    );
    fireEvent.click(ok as HTMLButtonElement);
    await waitFor(() => expect(document.body.textContent).toContain('Deleted successfully'));
    expect(calls.find((c) => c.path === '/ms/m1/msg/inbox/del')?.body).toEqual([3]);
  });

  it('reads the inbox only while it is open; another page drops the selection', async () => {
    const twelve = Array.from({ length: 12 }, (_, i) => message(i + 1));
    const { calls, stomp } = await setup(
      {},
      {
        'GET /ms/m1/msg/inbox/page/1/size/10': () => ({ list: twelve.slice(0, 10), total: 12 }),
        'GET /ms/m1/msg/inbox/page/2/size/10': () => ({ list: twelve.slice(10), total: 12 }),
      },
    );
    const pageReads = () => calls.filter((c) => c.path.startsWith('/ms/m1/msg/inbox/page/')).length;
    const newMessage = (id: number) =>
      deliver(stomp, INBOX_TOPIC, { handler: 'inbox.new', command: 'new', data: message(id) });
    const del = () => document.querySelector('[data-testid="inbox-delete"]') as HTMLButtonElement;
    await waitFor(() => expect(bell().textContent).toContain('2'));
    expect(pageReads()).toBe(0);

    const boxes = await openInbox();
    fireEvent.click(boxes[0] as HTMLInputElement);
    await waitFor(() => expect(del().disabled).toBe(false));
    fireEvent.click(document.querySelector('.ant-modal .ant-pagination-item-2') as HTMLElement);
    await waitFor(() => expect(document.body.textContent).toContain('Content 12'));
    expect(del().disabled).toBe(true);
    expect(document.querySelector('[data-testid="inbox-mark-all-read"]')).not.toBeNull();

    // A new message while open: the shown page is read again.
    const before = pageReads();
    await newMessage(13);
    await waitFor(() => expect(pageReads()).toBe(before + 1));
    expect(calls.at(-1)?.path).toBe('/ms/m1/msg/inbox/page/2/size/10');

    // Closed, the inbox reads nothing, though the bell takes the pushed message.
    fireEvent.click(document.querySelector('.ant-modal-close') as HTMLElement);
    await waitFor(() => expect(document.querySelector('.ant-modal tbody')).toBeNull());
    const closed = pageReads();
    await newMessage(14);
    await waitFor(() => expect(bell().textContent).toContain('4'));
    expect(pageReads()).toBe(closed);
  });
});
