import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { deadLetterTopic, type DeadLetter, type EventEnvelope } from '@voltdepot/shared-events';
import type { BatchHandler, EventBus, SubscribeOptions, Subscription } from '../bus';
import { createEnvelope, parseEnvelope, serializeEnvelope } from '../envelope.factory';
import {
  checkSubscribeOptions,
  DeliveryAborted,
  deliver,
  deliverBatch,
  resolveBatchSize,
  resolveRetryPolicy,
} from '../delivery';
import { DeadLetterEvent } from '../dead-letter.event';
import { assignPartitions, compareStreamIds, nextStreamId, partitionOf } from './partition';

export type RedisStreamsBusOptions = {
  url: string;
  /** Key prefix, so several deployments (or test runs) can share one Redis. */
  prefix?: string;
  /** Streams per topic. Every process of a deployment must use the same number. */
  partitions?: number;
  /** How long a consumer's partition lease lives without renewal (ms). */
  leaseMs?: number;
  /** Entries read per partition per round. */
  batchSize?: number;
  /** How long one blocking read waits (ms); bounds how fast a consumer notices rebalancing. */
  blockMs?: number;
  /** Streams are trimmed of acknowledged entries once they are longer than this. */
  maxLen?: number;
  /** How often this process trims the streams it knows (ms); 0 disables. */
  trimIntervalMs?: number;
  onError?: (error: unknown, context: string) => void;
};

const FIELD = 'e';

// Renew or take a lease only if we hold it or nobody does.
const RENEW_LEASE = `
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if not v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;
const RELEASE_LEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

type Slot = { topic: string; partition: number; stream: string; lease: string };

/**
 * Redis Streams driver. Each topic is split into `partitions` streams; a key always goes to the same
 * stream. Within a consumer group each stream is leased to one live member at a time, which gives
 * per-key ordering with competing consumers. A member that takes over a stream first reclaims its
 * pending (delivered, unacknowledged) entries with XAUTOCLAIM, so nothing a crashed member held is lost.
 */
export class RedisStreamsBus implements EventBus {
  readonly driver = 'redis' as const;
  private readonly producer: Redis;
  private readonly prefix: string;
  private readonly partitions: number;
  private readonly subscriptions = new Set<RedisStreamsSubscription>();
  private readonly knownTopics = new Set<string>();
  private trimTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: RedisStreamsBusOptions) {
    this.prefix = options.prefix ?? 'vd';
    this.partitions = options.partitions ?? 8;
    if (!Number.isInteger(this.partitions) || this.partitions < 1) throw new Error('partitions must be >= 1');
    this.producer = new Redis(options.url, {
      maxRetriesPerRequest: 3,
      enableOfflineQueue: true,
      lazyConnect: false,
    });
    this.producer.on('error', (error) => options.onError?.(error, 'redis producer'));
    const interval = options.trimIntervalMs ?? 30_000;
    if (interval > 0) {
      this.trimTimer = setInterval(() => {
        this.trim().catch((error) => options.onError?.(error, 'trim'));
      }, interval);
      this.trimTimer.unref();
    }
  }

  streamKey(topic: string, partition: number): string {
    return `${this.prefix}:s:${topic}:${partition}`;
  }

  async publish(envelopes: EventEnvelope | EventEnvelope[]): Promise<void> {
    const list = Array.isArray(envelopes) ? envelopes : [envelopes];
    if (list.length === 0) return;
    if (this.closed) throw new Error('bus is closed');
    const pipeline = this.producer.pipeline();
    for (const envelope of list) {
      this.knownTopics.add(envelope.topic);
      pipeline.xadd(
        this.streamKey(envelope.topic, partitionOf(envelope.key, this.partitions)),
        '*',
        FIELD,
        serializeEnvelope(envelope),
      );
    }
    const results = (await pipeline.exec()) ?? [];
    const failed = results.find(([error]) => error);
    if (failed) throw failed[0];
    if (results.length !== list.length) throw new Error('redis did not confirm every published event');
  }

  async subscribe(options: SubscribeOptions): Promise<Subscription> {
    if (this.closed) throw new Error('bus is closed');
    checkSubscribeOptions(options);
    const slots: Slot[] = options.topics.flatMap((topic) => {
      this.knownTopics.add(topic);
      return Array.from({ length: this.partitions }, (_, partition) => ({
        topic,
        partition,
        stream: this.streamKey(topic, partition),
        lease: `${this.prefix}:g:${options.group}:lease:${topic}:${partition}`,
      }));
    });
    for (const slot of slots) {
      try {
        await this.producer.xgroup('CREATE', slot.stream, options.group, '0', 'MKSTREAM');
      } catch (error) {
        if (!String((error as Error).message).includes('BUSYGROUP')) throw error;
      }
    }
    const subscription = new RedisStreamsSubscription(this, this.options, options, slots, this.prefix, () =>
      this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    try {
      await subscription.start();
    } catch (error) {
      await subscription.close().catch(() => undefined); // release its connections and leases
      throw error;
    }
    return subscription;
  }

  async publishDeadLetter(letter: DeadLetter): Promise<void> {
    await this.publish(
      createEnvelope(
        { ...DeadLetterEvent, topic: deadLetterTopic(letter.envelope.topic) },
        letter.envelope.key,
        letter,
        { correlationId: letter.envelope.correlationId },
      ),
    );
  }

  async ping(): Promise<void> {
    const answer = await this.producer.ping();
    if (answer !== 'PONG') throw new Error(`unexpected ping answer ${answer}`);
  }

  /**
   * Remove acknowledged entries from streams longer than maxLen. An entry is removable only when every
   * group has both read it and acknowledged it; a stream without groups is never trimmed.
   */
  async trim(): Promise<number> {
    const maxLen = this.options.maxLen ?? 100_000;
    let removed = 0;
    for (const topic of this.knownTopics) {
      for (let p = 0; p < this.partitions; p++) {
        const stream = this.streamKey(topic, p);
        const length = await this.producer.xlen(stream);
        if (length <= maxLen) continue;
        const safe = await this.safeTrimId(stream);
        if (!safe) continue;
        removed += Number(await this.producer.xtrim(stream, 'MINID', safe));
      }
    }
    return removed;
  }

  private async safeTrimId(stream: string): Promise<string | undefined> {
    const groups = (await this.producer.xinfo('GROUPS', stream)) as unknown[][];
    if (!groups.length) return undefined;
    let safe: string | undefined;
    for (const raw of groups) {
      const info = fieldsToObject(raw);
      const name = String(info['name']);
      const lastDelivered = String(info['last-delivered-id']);
      const pending = (await this.producer.xpending(stream, name)) as [
        number,
        string | null,
        string | null,
        unknown,
      ];
      const bound = pending[0] > 0 && pending[1] ? pending[1] : nextStreamId(lastDelivered);
      if (!safe || compareStreamIds(bound, safe) < 0) safe = bound;
    }
    return safe;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.trimTimer) clearInterval(this.trimTimer);
    await Promise.all([...this.subscriptions].map((s) => s.close()));
    await closeRedis(this.producer);
  }
}

/** QUIT when connected (flushes pending replies); otherwise just drop the connection attempts. */
async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    await client.quit().catch(() => client.disconnect());
  } else {
    client.disconnect();
  }
}

function fieldsToObject(raw: unknown[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) object[String(raw[i])] = raw[i + 1];
  return object;
}

type StreamEntry = [id: string, fields: string[] | null];

class RedisStreamsSubscription implements Subscription {
  readonly group: string;
  private readonly consumerId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly reader: Redis;
  private readonly control: Redis;
  private readonly membersKey: string;
  private readonly leaseMs: number;
  private readonly owned = new Map<string, Slot>();
  /** Streams whose pending entries must be reclaimed before reading new ones. */
  private readonly needsReclaim = new Set<string>();
  private readonly retry;
  private stopping = false;
  private loop?: Promise<void>;
  private heartbeat?: NodeJS.Timeout;
  private rebalancing?: Promise<void>;

  constructor(
    private readonly bus: RedisStreamsBus,
    private readonly busOptions: RedisStreamsBusOptions,
    private readonly options: SubscribeOptions,
    private readonly slots: Slot[],
    prefix: string,
    private readonly onClosed: () => void,
  ) {
    this.group = options.group;
    this.retry = resolveRetryPolicy(options.retry);
    this.leaseMs = busOptions.leaseMs ?? 10_000;
    this.membersKey = `${prefix}:g:${options.group}:members:${options.topics.slice().sort().join(',')}`;
    this.reader = new Redis(busOptions.url, { maxRetriesPerRequest: null });
    this.control = new Redis(busOptions.url, { maxRetriesPerRequest: 3 });
    this.reader.on('error', (error) => busOptions.onError?.(error, `redis reader ${this.group}`));
    this.control.on('error', (error) => busOptions.onError?.(error, `redis control ${this.group}`));
  }

  async start(): Promise<void> {
    await this.rebalance();
    this.heartbeat = setInterval(
      () => {
        this.rebalancing ??= this.rebalance()
          .catch((error) => this.busOptions.onError?.(error, `rebalance ${this.group}`))
          .finally(() => (this.rebalancing = undefined));
      },
      Math.max(100, Math.floor(this.leaseMs / 3)),
    );
    this.loop = this.run();
  }

  /** Refresh membership, then take, keep or give up partition leases per the shared plan. */
  private async rebalance(): Promise<void> {
    if (this.stopping) return;
    const now = Date.now();
    await this.control
      .multi()
      .zadd(this.membersKey, now + this.leaseMs, this.consumerId)
      .zremrangebyscore(this.membersKey, '-inf', now)
      .pexpire(this.membersKey, this.leaseMs * 10)
      .exec();
    const members = await this.control.zrange(this.membersKey, 0, -1);
    const wanted = new Set(assignPartitions(this.slots, members, this.consumerId).map((slot) => slot.stream));
    for (const slot of this.slots) {
      if (this.stopping) return;
      if (wanted.has(slot.stream)) {
        const ok = Number(
          await this.control.eval(RENEW_LEASE, 1, slot.lease, this.consumerId, String(this.leaseMs)),
        );
        if (ok && !this.owned.has(slot.stream)) {
          this.owned.set(slot.stream, slot);
          this.needsReclaim.add(slot.stream);
        } else if (!ok) {
          this.owned.delete(slot.stream);
        }
      } else if (this.owned.has(slot.stream)) {
        // Give the partition up between batches: drop it from the read set first, then release.
        this.owned.delete(slot.stream);
        await this.control.eval(RELEASE_LEASE, 1, slot.lease, this.consumerId);
      }
    }
  }

  private async run(): Promise<void> {
    const batchSize = resolveBatchSize(this.options.maxBatchSize ?? this.busOptions.batchSize);
    const blockMs = this.busOptions.blockMs ?? 500;
    while (!this.stopping) {
      try {
        const streams = [...this.owned.keys()];
        if (streams.length === 0) {
          await sleep(Math.min(200, blockMs));
          continue;
        }
        const batches = new Map<string, StreamEntry[]>();
        for (const stream of streams.filter((s) => this.needsReclaim.has(s))) {
          batches.set(stream, await this.reclaim(stream, batchSize));
        }
        if (batches.size === 0) {
          const result = (await this.reader.xreadgroup(
            'GROUP',
            this.group,
            this.consumerId,
            'COUNT',
            batchSize,
            'BLOCK',
            blockMs,
            'STREAMS',
            ...streams,
            ...streams.map(() => '>'),
          )) as [string, StreamEntry[]][] | null;
          for (const [stream, entries] of result ?? []) batches.set(stream, entries);
        }
        await Promise.all([...batches].map(([stream, entries]) => this.process(stream, entries)));
      } catch (error) {
        if (this.stopping) break;
        this.busOptions.onError?.(error, `consume ${this.group}`);
        await sleep(500);
      }
    }
  }

  /** Take over every pending entry of a stream we now lease (ours from an earlier life, or a dead member's). */
  private async reclaim(stream: string, count: number): Promise<StreamEntry[]> {
    const entries: StreamEntry[] = [];
    let cursor = '0-0';
    do {
      const [next, claimed, deleted] = (await this.control.xautoclaim(
        stream,
        this.group,
        this.consumerId,
        0,
        cursor,
        'COUNT',
        count,
      )) as [string, StreamEntry[], string[]?];
      entries.push(...claimed.filter(([, fields]) => fields));
      // Entries trimmed while pending cannot be delivered; acknowledge their ids so they leave the PEL.
      if (deleted?.length) await this.control.xack(stream, this.group, ...deleted);
      cursor = next;
    } while (cursor !== '0-0' && entries.length < count);
    if (cursor === '0-0') this.needsReclaim.delete(stream);
    return entries.sort(([a], [b]) => compareStreamIds(a, b));
  }

  private async process(stream: string, entries: StreamEntry[]): Promise<void> {
    const options = this.options;
    if (options.batchHandler) return this.processBatch(stream, entries, options.batchHandler);
    const done: string[] = [];
    try {
      for (const [id, fields] of entries) {
        if (this.stopping || !this.owned.has(stream)) break;
        const raw = fieldValue(fields, FIELD);
        let envelope: EventEnvelope;
        try {
          envelope = parseEnvelope(raw ?? '');
        } catch (error) {
          // A malformed entry can never succeed: park it with its raw text instead of blocking the stream.
          await this.bus.publishDeadLetter({
            envelope: malformedEnvelope(this.owned.get(stream)?.topic ?? stream, `${stream}/${id}`, raw),
            group: this.group,
            attempts: 0,
            error: (error as Error).message,
            failedAt: new Date().toISOString(),
          });
          done.push(id);
          continue;
        }
        await deliver(envelope, options.handler, this.group, `${stream}/${id}`, this.retry, {
          deadLetter: (letter) => this.bus.publishDeadLetter(letter),
          isStopping: () => this.stopping,
          onError: (error, _e, attempt) =>
            this.busOptions.onError?.(error, `handler ${this.group} attempt ${attempt}`),
        });
        done.push(id);
      }
    } catch (error) {
      if (!(error instanceof DeliveryAborted)) throw error;
    } finally {
      if (done.length) await this.control.xack(stream, this.group, ...done);
    }
  }

  /**
   * Hand the entries read from one stream to the batch handler at once and acknowledge them after it
   * resolved (its transaction committed). A malformed entry is parked first; if the lease is lost or the
   * consumer stops mid-way, what was not handled stays pending for the next owner.
   */
  private async processBatch(stream: string, entries: StreamEntry[], handler: BatchHandler): Promise<void> {
    const slot = this.owned.get(stream);
    if (this.stopping || !slot) return;
    const valid: { id: string; envelope: EventEnvelope }[] = [];
    const malformed: string[] = [];
    for (const [id, fields] of entries) {
      const raw = fieldValue(fields, FIELD);
      try {
        valid.push({ id, envelope: parseEnvelope(raw ?? '') });
      } catch (error) {
        await this.bus.publishDeadLetter({
          envelope: malformedEnvelope(slot.topic, `${stream}/${id}`, raw),
          group: this.group,
          attempts: 0,
          error: (error as Error).message,
          failedAt: new Date().toISOString(),
        });
        malformed.push(id);
      }
    }
    if (malformed.length) await this.control.xack(stream, this.group, ...malformed);
    const outcome = await deliverBatch(
      valid.map((v) => v.envelope),
      handler,
      {
        group: this.group,
        partition: `${slot.topic}/${slot.partition}`,
        positions: valid.map((v) => `${stream}/${v.id}`),
      },
      this.retry,
      {
        deadLetter: (letter) => this.bus.publishDeadLetter(letter),
        isStopping: () => this.stopping || !this.owned.has(stream),
        onError: (error, _e, attempt) =>
          this.busOptions.onError?.(error, `handler ${this.group} attempt ${attempt}`),
        onBatchError: (error, size) =>
          this.busOptions.onError?.(error, `batch handler ${this.group} (${size} events, now one by one)`),
      },
    );
    const done = valid.slice(0, outcome.acknowledged).map((v) => v.id);
    if (done.length) await this.control.xack(stream, this.group, ...done);
    if (outcome.error) throw outcome.error;
  }

  async close(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.rebalancing;
    this.reader.disconnect(); // interrupts a blocking read; the loop then ends
    await this.loop;
    try {
      for (const slot of this.owned.values())
        await this.control.eval(RELEASE_LEASE, 1, slot.lease, this.consumerId);
      await this.control.zrem(this.membersKey, this.consumerId);
    } finally {
      this.owned.clear();
      await closeRedis(this.control);
      this.onClosed();
    }
  }
}

function fieldValue(fields: string[] | null, name: string): string | undefined {
  if (!fields) return undefined;
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}

function malformedEnvelope(topic: string, position: string, raw: string | undefined): EventEnvelope {
  return {
    eventId: `malformed:${position}`,
    topic,
    key: position,
    type: 'malformed',
    version: 0,
    occurredAt: new Date().toISOString(),
    correlationId: randomUUID(),
    payload: { raw: raw ?? null },
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
