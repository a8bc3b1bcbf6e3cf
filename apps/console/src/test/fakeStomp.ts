import type { StompConfig } from '@stomp/stompjs';
import { pushRuntime, type StompLike } from '../app/notice/pushClient';

/** A STOMP client that records its configuration and subscriptions, and lets a test play the broker. */
export type FakeStomp = {
  configs: StompConfig[];
  subscriptions: { destination: string; headers: Record<string, string>; deliver: (body: string) => void }[];
  deactivated: number;
  /**
   * The broker accepted the connection (again); it then answers the receipts asked for on the frames the
   * client sent on connecting (as msg-center does once it has processed them).
   */
  connect(): void;
};

/** Replaces the push connection's STOMP client for the rest of the test file. */
export function fakeStomp(): FakeStomp {
  const fake: FakeStomp = {
    configs: [],
    subscriptions: [],
    deactivated: 0,
    connect: () => {
      fake.configs.at(-1)?.onConnect?.({} as never);
      for (const receipt of [...asked]) {
        const watcher = watchers.get(receipt);
        if (!watcher) continue;
        asked.delete(receipt);
        watchers.delete(receipt);
        watcher({ headers: { 'receipt-id': receipt } } as never);
      }
    },
  };
  const asked = new Set<string>();
  const watchers = new Map<string, (frame: never) => void>();
  pushRuntime.createClient = (config): StompLike => {
    fake.configs.push(config);
    return {
      activate: () => undefined,
      deactivate: () => {
        fake.deactivated++;
        return Promise.resolve();
      },
      watchForReceipt: (receipt, callback) => {
        watchers.set(receipt, callback as (frame: never) => void);
      },
      subscribe: (destination, callback, headers = {}) => {
        if (headers['receipt']) asked.add(headers['receipt']);
        fake.subscriptions.push({
          destination,
          headers,
          deliver: (body) => callback({ body } as never),
        });
        return { id: destination, unsubscribe: () => undefined };
      },
    };
  };
  return fake;
}
