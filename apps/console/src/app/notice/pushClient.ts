import { Client, type StompConfig } from '@stomp/stompjs';
import { STOMP_INBOX_TOPIC, type InboxPush, type StopNotice } from '@voltdepot/shared-contracts';

/** Spec §7 "Push": stop notices use the same connection with this topic. */
export const STOMP_STOP_NOTICE_TOPIC = '/user/topic/transRunStatusStop';
/** Spec §9: heartbeat 30000 ms each way, connection time-out 30000 ms. */
export const PUSH_HEARTBEAT_MS = 30_000;
export const PUSH_CONNECTION_TIMEOUT_MS = 30_000;
export const PUSH_RECONNECT_DELAY_MS = 5_000;

/** The part of a @stomp/stompjs Client the console uses (a fake in unit tests). */
export type StompLike = Pick<Client, 'activate' | 'deactivate' | 'subscribe' | 'watchForReceipt'>;
export type StompFactory = (config: StompConfig) => StompLike;

export const defaultStompFactory: StompFactory = (config) => new Client(config);

/** Which STOMP client the app creates; tests replace it (src/test/setup.ts). */
export const pushRuntime: { createClient: StompFactory } = { createClient: defaultStompFactory };

/** `ws(s)://…/ms/ws` under the API base (absolute base) or this page's origin (relative base). */
export function pushUrl(base: string, location: Pick<Location, 'protocol' | 'host'>): string {
  const trimmed = base.replace(/\/+$/, '');
  if (/^https?:\/\//i.test(trimmed)) return `${trimmed.replace(/^http/i, 'ws')}/ms/ws`;
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}${trimmed}/ms/ws`;
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

function isInboxPush(value: unknown): value is InboxPush {
  if (typeof value !== 'object' || value === null) return false;
  const handler = (value as { handler?: unknown }).handler;
  return handler === 'inbox.unread' || handler === 'inbox.new';
}

function isStopNotice(value: unknown): value is StopNotice {
  return typeof value === 'object' && value !== null && typeof (value as { msg?: unknown }).msg === 'string';
}

export type PushConnectionOptions = {
  url: string;
  accessToken: string;
  onInbox: (push: InboxPush) => void;
  /** Given: the stop-notice topic is subscribed too. */
  onStopNotice?: (notice: StopNotice) => void;
  /** After every (re)connect, once the topics are subscribed. */
  onConnect?: () => void;
  createClient?: StompFactory;
};

/**
 * Opens the STOMP connection of the message centre (spec §4 "Push connection"): bearer token on CONNECT,
 * heartbeat 30 s each way, topics subscribed again after every reconnect. Returns the closer.
 */
export function openPushConnection(options: PushConnectionOptions): () => void {
  const { url, accessToken, onInbox, onStopNotice, onConnect } = options;
  if (!url) {
    console.error('push connection: no URL set');
    return () => undefined;
  }
  const create = options.createClient ?? pushRuntime.createClient;
  const client: StompLike = create({
    brokerURL: url,
    connectHeaders: { Authorization: `Bearer ${accessToken}` },
    heartbeatIncoming: PUSH_HEARTBEAT_MS,
    heartbeatOutgoing: PUSH_HEARTBEAT_MS,
    connectionTimeout: PUSH_CONNECTION_TIMEOUT_MS,
    reconnectDelay: PUSH_RECONNECT_DELAY_MS,
    onConnect: () => {
      client.subscribe(STOMP_INBOX_TOPIC, (message) => {
        const body = parse(message.body);
        if (isInboxPush(body)) onInbox(body);
      });
      if (onStopNotice) {
        client.subscribe(STOMP_STOP_NOTICE_TOPIC, (message) => {
          const body = parse(message.body);
          if (isStopNotice(body)) onStopNotice(body);
        });
      }
      onConnect?.();
    },
  });
  client.activate();
  return () => {
    void client.deactivate();
  };
}
