// @vitest-environment node
import type { StompConfig } from '@stomp/stompjs';
import { describe, expect, it, vi } from 'vitest';
import { openPushConnection, pushUrl, STOMP_STOP_NOTICE_TOPIC, type StompLike } from './pushClient';

function fakeStomp() {
  const state = {
    config: undefined as StompConfig | undefined,
    subscriptions: [] as { topic: string; callback: (message: { body: string }) => void }[],
    activate: vi.fn(),
    deactivate: vi.fn(() => Promise.resolve()),
  };
  const factory = (config: StompConfig): StompLike => {
    state.config = config;
    return {
      activate: state.activate,
      deactivate: state.deactivate,
      subscribe: ((topic: string, callback: (message: { body: string }) => void) => {
        state.subscriptions.push({ topic, callback });
        return { id: String(state.subscriptions.length), unsubscribe: () => undefined };
      }) as unknown as StompLike['subscribe'],
      watchForReceipt: vi.fn(),
    };
  };
  const connect = () => state.config?.onConnect?.({} as never);
  const push = (topic: string, body: unknown) => {
    for (const subscription of state.subscriptions.filter((s) => s.topic === topic)) {
      subscription.callback({ body: JSON.stringify(body) });
    }
  };
  return { state, factory, connect, push };
}

describe('pushUrl', () => {
  it('uses the page origin for a relative base', () => {
    expect(pushUrl('', { protocol: 'http:', host: 'console.test:4200' })).toBe(
      'ws://console.test:4200/ms/ws',
    );
    expect(pushUrl('/x/', { protocol: 'https:', host: 'a.b' })).toBe('wss://a.b/x/ms/ws');
  });
  it('turns an absolute base into ws(s)', () => {
    expect(pushUrl('https://api.example/', { protocol: 'http:', host: 'x' })).toBe('wss://api.example/ms/ws');
  });
});

describe('openPushConnection', () => {
  it('connects with the bearer token and the 30 s heartbeat, subscribes on every connect, closes', () => {
    const fake = fakeStomp();
    const onInbox = vi.fn();
    const onStopNotice = vi.fn();
    const onConnect = vi.fn();
    const close = openPushConnection({
      url: 'ws://h/ms/ws',
      accessToken: 'tok',
      onInbox,
      onStopNotice,
      onConnect,
      createClient: fake.factory,
    });
    expect(fake.state.activate).toHaveBeenCalledOnce();
    expect(fake.state.config).toMatchObject({
      brokerURL: 'ws://h/ms/ws',
      connectHeaders: { Authorization: 'Bearer tok' },
      heartbeatIncoming: 30000,
      heartbeatOutgoing: 30000,
      connectionTimeout: 30000,
    });
    fake.connect();
    expect(fake.state.subscriptions.map((s) => s.topic)).toEqual([
      '/user/topic/m1/msg/inbox',
      STOMP_STOP_NOTICE_TOPIC,
    ]);
    expect(onConnect).toHaveBeenCalledOnce();

    const message = {
      id: 1,
      title: 't',
      content: 'c',
      sender: 's',
      sendTime: '2026-01-01 00:00:00',
      isRead: false,
    };
    fake.push('/user/topic/m1/msg/inbox', { handler: 'inbox.new', command: 'new', data: message });
    fake.push('/user/topic/m1/msg/inbox', { something: 'else' });
    expect(onInbox).toHaveBeenCalledExactlyOnceWith({ handler: 'inbox.new', command: 'new', data: message });
    fake.push(STOMP_STOP_NOTICE_TOPIC, { type: 1, msg: 'A-1 stopped', date: 'd' });
    expect(onStopNotice).toHaveBeenCalledExactlyOnceWith({ type: 1, msg: 'A-1 stopped', date: 'd' });

    // reconnect: subscribed again
    fake.connect();
    expect(fake.state.subscriptions).toHaveLength(4);
    expect(onConnect).toHaveBeenCalledTimes(2);

    close();
    expect(fake.state.deactivate).toHaveBeenCalledOnce();
  });

  it('skips the stop-notice topic without a handler', () => {
    const fake = fakeStomp();
    openPushConnection({
      url: 'ws://h/ms/ws',
      accessToken: 't',
      onInbox: vi.fn(),
      createClient: fake.factory,
    });
    fake.connect();
    expect(fake.state.subscriptions.map((s) => s.topic)).toEqual(['/user/topic/m1/msg/inbox']);
  });

  it('logs an error without a URL', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const fake = fakeStomp();
    openPushConnection({ url: '', accessToken: 't', onInbox: vi.fn(), createClient: fake.factory });
    expect(error).toHaveBeenCalled();
    expect(fake.state.activate).not.toHaveBeenCalled();
    error.mockRestore();
  });
});
