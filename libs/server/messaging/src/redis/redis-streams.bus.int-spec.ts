import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { defineEvent } from '@voltdepot/shared-events';
import { eventually, testEnv } from '@voltdepot/server-testing';
import { busContract } from '../contract/bus-contract';
import { createEnvelope } from '../envelope.factory';
import { RedisStreamsBus } from './redis-streams.bus';

const { redisUrl } = testEnv();
const prefix = `vdtest-${randomUUID().slice(0, 8)}`;

afterAll(async () => {
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

describe('RedisStreamsBus contract', () => {
  busContract({
    makeBus: () =>
      new RedisStreamsBus({ url: redisUrl, prefix, leaseMs: 2000, blockMs: 200, trimIntervalMs: 0 }),
    childEnv: { BUS: 'redis', REDIS_URL: redisUrl, BUS_PREFIX: prefix, LEASE_MS: '2000' },
    settleMs: 1500,
  });
});

describe('RedisStreamsBus stream bounds', () => {
  it('trims acknowledged entries beyond maxLen but never an unacknowledged one', async () => {
    const topic = `trim.${randomUUID().slice(0, 8)}`;
    const def = defineEvent<{ seq: number }>()(topic, 'trim.numbered', 1);
    const bus = new RedisStreamsBus({
      url: redisUrl,
      prefix,
      partitions: 1,
      maxLen: 10,
      trimIntervalMs: 0,
      blockMs: 100,
    });
    const redis = new Redis(redisUrl);
    try {
      const seen: number[] = [];
      const fast = await bus.subscribe({
        topics: [topic],
        group: 'fast',
        handler: async (e) => void seen.push((e.payload as { seq: number }).seq),
      });
      // A second group that has read nothing yet: its entries must survive any trim.
      const stream = bus.streamKey(topic, 0);
      await redis.xgroup('CREATE', stream, 'slow', '0', 'MKSTREAM').catch(() => undefined);
      await bus.publish(Array.from({ length: 50 }, (_, seq) => createEnvelope(def, 'CP-1', { seq })));
      await eventually(() => expect(seen).toHaveLength(50));
      expect(await bus.trim()).toBe(0);
      expect(await redis.xlen(stream)).toBe(50);

      // Once the slow group has read and acknowledged 40 of them, those 40 may go.
      const read = (await redis.xreadgroup('GROUP', 'slow', 'c1', 'COUNT', 40, 'STREAMS', stream, '>')) as [
        string,
        [string, string[]][],
      ][];
      const ids = read[0][1].map(([id]) => id);
      await redis.xack(stream, 'slow', ...ids.slice(0, 30)); // 10 stay pending
      expect(await bus.trim()).toBe(30);
      expect(await redis.xlen(stream)).toBe(20);
      const pending = (await redis.xpending(stream, 'slow')) as [number, string];
      expect(pending[0]).toBe(10);
      expect(pending[1]).toBe(ids[30]); // the oldest pending entry is still there
      await fast.close();
    } finally {
      await bus.close();
      await redis.quit();
    }
  });

  it('reclaims the pending entries of a member that died without acknowledging', async () => {
    const topic = `reclaim.${randomUUID().slice(0, 8)}`;
    const def = defineEvent<{ seq: number }>()(topic, 'reclaim.numbered', 1);
    const bus = new RedisStreamsBus({
      url: redisUrl,
      prefix,
      partitions: 1,
      leaseMs: 600,
      blockMs: 100,
      trimIntervalMs: 0,
    });
    const redis = new Redis(redisUrl);
    try {
      await bus.publish(Array.from({ length: 5 }, (_, seq) => createEnvelope(def, 'CP-1', { seq })));
      const stream = bus.streamKey(topic, 0);
      await redis.xgroup('CREATE', stream, 'g', '0', 'MKSTREAM');
      // A "dead" member read three entries and never acknowledged them.
      await redis.xreadgroup('GROUP', 'g', 'dead-member', 'COUNT', 3, 'STREAMS', stream, '>');
      const seen: number[] = [];
      await bus.subscribe({
        topics: [topic],
        group: 'g',
        handler: async (e) => void seen.push((e.payload as { seq: number }).seq),
      });
      await eventually(() => expect(seen).toEqual([0, 1, 2, 3, 4]));
      await eventually(async () => expect(((await redis.xpending(stream, 'g')) as [number])[0]).toBe(0));
    } finally {
      await bus.close();
      await redis.quit();
    }
  });
});
