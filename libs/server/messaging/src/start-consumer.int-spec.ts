import { randomUUID } from 'node:crypto';
import net from 'node:net';
import Redis from 'ioredis';
import { defineEvent, type EventEnvelope } from '@voltdepot/shared-events';
import { eventually, testEnv } from '@voltdepot/server-testing';
import { createEnvelope } from './envelope.factory';
import { RedisStreamsBus } from './redis/redis-streams.bus';
import { startConsumer } from './start-consumer';

const { redisUrl } = testEnv();
const prefix = `vdtest-start-${randomUUID().slice(0, 8)}`;

/** A TCP port nobody listens on (yet). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A plain TCP relay on `port` to the real Redis: "the broker comes up" when it starts listening. */
function relayTo(upstream: URL, port: number): Promise<net.Server> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const remote = net.connect(Number(upstream.port || 6379), upstream.hostname);
    for (const s of [client, remote]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(remote).pipe(client);
  });
  const close = server.close.bind(server);
  // Closing the relay also cuts the connections through it (server.close alone waits for them).
  server.close = (callback?: (error?: Error) => void) => {
    sockets.forEach((s) => s.destroy());
    return close(callback);
  };
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

const Ping = defineEvent<{ n: number }>()(`start.${randomUUID().slice(0, 8)}`, 'start.ping', 1);

afterAll(async () => {
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

describe('startConsumer', () => {
  it('keeps trying while the bus is unreachable and consumes once it comes up', async () => {
    const upstream = new URL(redisUrl);
    const port = await freePort();
    const behind = new URL(redisUrl);
    behind.hostname = '127.0.0.1';
    behind.port = String(port);
    const bus = new RedisStreamsBus({ url: behind.toString(), prefix, blockMs: 100, trimIntervalMs: 0 });
    bus.ping().catch(() => undefined);
    const publisher = new RedisStreamsBus({ url: redisUrl, prefix, trimIntervalMs: 0 });
    const retries: number[] = [];
    const received: EventEnvelope[] = [];
    const consumer = startConsumer(
      bus,
      { topics: [Ping.topic], group: 'late', handler: async (e) => void received.push(e) },
      { initialDelayMs: 50, maxDelayMs: 200, onRetry: (_e, attempt) => void retries.push(attempt) },
    );
    let relay: net.Server | undefined;
    try {
      await eventually(() => expect(retries.length).toBeGreaterThanOrEqual(2), 20_000);
      expect(consumer.running).toBe(false);
      expect(consumer.attempts.lastError).toEqual(expect.any(String));
      await publisher.publish(createEnvelope(Ping, 'CP-1', { n: 1 })); // waits in the stream

      relay = await relayTo(upstream, port);
      await consumer.started;
      expect(consumer.running).toBe(true);
      await publisher.publish(createEnvelope(Ping, 'CP-1', { n: 2 }));
      await eventually(() => expect(received.map((e) => (e.payload as { n: number }).n)).toEqual([1, 2]));
      expect(retries).toEqual(retries.map((_, i) => i + 1)); // one numbered attempt after another
    } finally {
      await consumer.close();
      await bus.close();
      await publisher.close();
      await new Promise((resolve) => (relay ? relay.close(resolve) : resolve(undefined)));
    }
  });

  it('stops retrying when closed before the bus came up', async () => {
    const behind = new URL(redisUrl);
    behind.hostname = '127.0.0.1';
    behind.port = String(await freePort());
    const bus = new RedisStreamsBus({ url: behind.toString(), prefix, trimIntervalMs: 0 });
    bus.ping().catch(() => undefined);
    const retries: number[] = [];
    const consumer = startConsumer(
      bus,
      { topics: [Ping.topic], group: 'never', handler: async () => undefined },
      { initialDelayMs: 1_000, maxDelayMs: 1_000, onRetry: (_e, attempt) => void retries.push(attempt) },
    );
    try {
      await eventually(() => expect(retries).toEqual([1]), 20_000);
      const closing = Date.now();
      await consumer.close();
      expect(Date.now() - closing).toBeLessThan(900); // the pending wait was cut short
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect(retries).toEqual([1]);
      expect(consumer.running).toBe(false);
    } finally {
      await bus.close();
    }
  });

  it('refuses options that can never work at once instead of retrying them', () => {
    const bus = new RedisStreamsBus({ url: redisUrl, prefix, trimIntervalMs: 0 });
    try {
      expect(() => startConsumer(bus, { topics: [], group: 'g', handler: async () => undefined })).toThrow(
        'subscribe: at least one topic is required',
      );
    } finally {
      void bus.close();
    }
  });
});
