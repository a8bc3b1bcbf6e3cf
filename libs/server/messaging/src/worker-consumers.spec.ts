import type { EventBus, SubscribeOptions, Subscription } from './bus';
import { WorkerConsumers } from './worker-consumers';

/** A bus whose first `failures` subscriptions fail (the broker not up yet). */
function fakeBus(failures: number) {
  const subscribed: string[] = [];
  const closed: string[] = [];
  let attempts = 0;
  const bus = {
    driver: 'redis',
    publish: async () => undefined,
    ping: async () => undefined,
    close: async () => undefined,
    subscribe: async (options: SubscribeOptions): Promise<Subscription> => {
      if (attempts++ < failures) throw new Error('ECONNREFUSED');
      subscribed.push(options.group);
      return { close: async () => void closed.push(options.group) } as Subscription;
    },
  } as EventBus;
  return { bus, subscribed, closed };
}

const subscription = (group: string): SubscribeOptions => ({
  topics: ['t'],
  group,
  handler: async () => undefined,
});

class TwoConsumers extends WorkerConsumers {
  constructor(bus: EventBus, logger: { warn(message: string): void }) {
    super(bus, logger);
  }
  protected subscriptions() {
    return [subscription('a'), subscription('b')];
  }
}

describe('WorkerConsumers', () => {
  it('starts every subscription once the application has started and closes them on shutdown', async () => {
    const { bus, subscribed, closed } = fakeBus(0);
    const consumers = new TwoConsumers(bus, { warn: jest.fn() });
    expect(subscribed).toEqual([]);
    consumers.onApplicationBootstrap();
    await Promise.all(consumers.started.map((c) => c.started));
    expect(subscribed.sort()).toEqual(['a', 'b']);
    await consumers.onApplicationShutdown();
    expect(closed.sort()).toEqual(['a', 'b']);
  });

  it('keeps trying while the bus is unreachable, with a warning naming the group per failed attempt', async () => {
    const { bus, subscribed } = fakeBus(1);
    const warn = jest.fn();
    const consumers = new TwoConsumers(bus, { warn });
    consumers.onApplicationBootstrap();
    await Promise.all(consumers.started.map((c) => c.started));
    expect(subscribed.sort()).toEqual(['a', 'b']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(
      /^a consumer not started \(attempt 1, next in 500 ms\): ECONNREFUSED/,
    );
    await consumers.onApplicationShutdown();
  });
});
