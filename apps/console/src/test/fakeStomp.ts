import type { StompConfig } from '@stomp/stompjs';
import { pushRuntime, type StompLike } from '../app/notice/pushClient';

/** A STOMP client that records its configuration and subscriptions, and lets a test play the broker. */
export type FakeStomp = {
  configs: StompConfig[];
  subscriptions: { destination: string; deliver: (body: string) => void }[];
  deactivated: number;
  /** The broker accepted the connection (again). */
  connect(): void;
};

/** Replaces the push connection's STOMP client for the rest of the test file. */
export function fakeStomp(): FakeStomp {
  const fake: FakeStomp = {
    configs: [],
    subscriptions: [],
    deactivated: 0,
    connect: () => fake.configs.at(-1)?.onConnect?.({} as never),
  };
  pushRuntime.createClient = (config): StompLike => {
    fake.configs.push(config);
    return {
      activate: () => undefined,
      deactivate: () => {
        fake.deactivated++;
        return Promise.resolve();
      },
      subscribe: (destination, callback) => {
        fake.subscriptions.push({
          destination,
          deliver: (body) => callback({ body } as never),
        });
        return { id: destination, unsubscribe: () => undefined };
      },
    };
  };
  return fake;
}
