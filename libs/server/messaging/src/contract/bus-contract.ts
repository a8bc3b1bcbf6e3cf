/**
 * The behaviour every bus driver must have. Each driver's integration spec runs this same suite
 * against a real broker (Redis for the streams driver, Kafka for the Kafka driver).
 */
import { randomUUID } from 'node:crypto';
import { defineEvent, deadLetterTopic, type DeadLetter, type EventEnvelope } from '@voltdepot/shared-events';
import {
  createTestDatabase,
  eventually,
  spawnTs,
  type TestDatabase,
  type TsProcess,
} from '@voltdepot/server-testing';
import type { BatchDeliveryContext, EventBus } from '../bus';
import { createEnvelope } from '../envelope.factory';

export type ContractTarget = {
  /** A new bus instance (as another process would have). */
  makeBus(): EventBus;
  /** Environment for child processes (BUS, REDIS_URL/KAFKA_BROKERS, BUS_PREFIX...). */
  childEnv: Record<string, string>;
  /** How long a new group member needs before it shares the work. */
  settleMs: number;
};

type Numbered = { seq: number; poison?: boolean };

const FIXTURES = 'libs/server/messaging/src/contract/fixtures';

export function busContract(target: ContractTarget): void {
  const buses: EventBus[] = [];
  const children: TsProcess[] = [];
  const newBus = () => {
    const bus = target.makeBus();
    buses.push(bus);
    return bus;
  };
  const newTopic = (label: string) => `contract.${label}.${randomUUID().slice(0, 8)}`;
  const numbered = (topic: string) => defineEvent<Numbered>()(topic, 'contract.numbered', 1);

  afterEach(async () => {
    await Promise.all(children.splice(0).map((c) => c.kill('SIGKILL')));
    await Promise.all(buses.splice(0).map((b) => b.close()));
  });

  /** Subscribe and collect every envelope the handler sees. */
  async function collect(bus: EventBus, topic: string, group: string, received: EventEnvelope<Numbered>[]) {
    return bus.subscribe({
      topics: [topic],
      group,
      handler: async (envelope) => {
        received.push(envelope as EventEnvelope<Numbered>);
      },
    });
  }

  function seqsByKey(events: EventEnvelope<Numbered>[]): Map<string, number[]> {
    const byKey = new Map<string, number[]>();
    for (const e of events) byKey.set(e.key, [...(byKey.get(e.key) ?? []), e.payload.seq]);
    return byKey;
  }

  it('delivers events with the same key in publish order', async () => {
    const bus = newBus();
    const topic = newTopic('order');
    const def = numbered(topic);
    const received: EventEnvelope<Numbered>[] = [];
    await collect(bus, topic, 'orderly', received);
    const keys = ['CP-A', 'CP-B', 'CP-C', 'CP-D', 'CP-E'];
    for (let batch = 0; batch < 10; batch++) {
      await bus.publish(
        Array.from({ length: 50 }, (_, i) => {
          const seq = batch * 50 + i;
          return createEnvelope(def, keys[seq % keys.length], { seq });
        }),
      );
    }
    await eventually(() => expect(received).toHaveLength(500), 30_000);
    for (const [key, seqs] of seqsByKey(received)) {
      expect({ key, seqs }).toEqual({ key, seqs: [...seqs].sort((a, b) => a - b) });
      expect(seqs).toHaveLength(100);
    }
    expect(received[0]).toMatchObject({ topic, type: 'contract.numbered', version: 1 });
    expect(typeof received[0].correlationId).toBe('string');
  });

  it('gives every consumer group every event', async () => {
    const bus = newBus();
    const topic = newTopic('groups');
    const def = numbered(topic);
    const billing: EventEnvelope<Numbered>[] = [];
    const notices: EventEnvelope<Numbered>[] = [];
    await collect(bus, topic, 'billing', billing);
    await collect(newBus(), topic, 'notices', notices);
    await bus.publish(Array.from({ length: 200 }, (_, seq) => createEnvelope(def, `CP-${seq % 9}`, { seq })));
    await eventually(() => {
      expect(billing).toHaveLength(200);
      expect(notices).toHaveLength(200);
    }, 30_000);
    expect(new Set(billing.map((e) => e.eventId))).toEqual(new Set(notices.map((e) => e.eventId)));
  });

  it('shares the events of one group among competing consumers, each key staying in order', async () => {
    const topic = newTopic('compete');
    const def = numbered(topic);
    const first: EventEnvelope<Numbered>[] = [];
    const second: EventEnvelope<Numbered>[] = [];
    await collect(newBus(), topic, 'workers', first);
    await collect(newBus(), topic, 'workers', second);
    await new Promise((resolve) => setTimeout(resolve, target.settleMs));
    const publisher = newBus();
    await publisher.publish(
      Array.from({ length: 400 }, (_, seq) => createEnvelope(def, `CP-${seq % 40}`, { seq })),
    );
    await eventually(() => {
      expect(new Set([...first, ...second].map((e) => e.payload.seq)).size).toBe(400);
    }, 30_000);
    expect(first.length).toBeGreaterThan(0);
    expect(second.length).toBeGreaterThan(0);
    for (const side of [first, second]) {
      for (const seqs of seqsByKey(side).values()) expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    }
  });

  it('retries a failing handler with backoff and then delivers once it succeeds', async () => {
    const bus = newBus();
    const topic = newTopic('retry');
    const def = numbered(topic);
    const attempts: number[] = [];
    const handled: number[] = [];
    await bus.subscribe({
      topics: [topic],
      group: 'flaky',
      retry: { maxAttempts: 4, initialDelayMs: 20, maxDelayMs: 100 },
      handler: async (envelope, context) => {
        attempts.push(context.attempt);
        if (context.attempt < 3) throw new Error('database busy');
        handled.push((envelope.payload as Numbered).seq);
      },
    });
    await bus.publish(createEnvelope(def, 'CP-1', { seq: 1 }));
    await eventually(() => expect(handled).toEqual([1]), 20_000);
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('parks an event that keeps failing in the dead-letter topic with the error, and moves on', async () => {
    const bus = newBus();
    const topic = newTopic('poison');
    const def = numbered(topic);
    const handled: number[] = [];
    let poisonAttempts = 0;
    await bus.subscribe({
      topics: [topic],
      group: 'settlement',
      retry: { maxAttempts: 3, initialDelayMs: 10, maxDelayMs: 40 },
      handler: async (envelope) => {
        const payload = envelope.payload as Numbered;
        if (payload.poison) {
          poisonAttempts++;
          throw new Error(`cannot settle seq ${payload.seq}`);
        }
        handled.push(payload.seq);
      },
    });
    const letters: EventEnvelope<DeadLetter>[] = [];
    await bus.subscribe({
      topics: [deadLetterTopic(topic)],
      group: 'dlq-reader',
      handler: async (envelope) => {
        letters.push(envelope as EventEnvelope<DeadLetter>);
      },
    });
    const poison = createEnvelope(def, 'CP-1', { seq: 2, poison: true });
    await bus.publish([
      createEnvelope(def, 'CP-1', { seq: 1 }),
      poison,
      createEnvelope(def, 'CP-1', { seq: 3 }),
    ]);
    await eventually(() => {
      expect(handled).toEqual([1, 3]);
      expect(letters).toHaveLength(1);
    }, 30_000);
    expect(poisonAttempts).toBe(3);
    expect(letters[0].payload).toMatchObject({
      group: 'settlement',
      attempts: 3,
      error: 'Error: cannot settle seq 2',
      envelope: { eventId: poison.eventId, key: 'CP-1', payload: { seq: 2, poison: true } },
    });
    expect(letters[0].topic).toBe(deadLetterTopic(topic));
  });

  it('hands a batch handler many events of one partition at once, each key in publish order', async () => {
    const bus = newBus();
    const topic = newTopic('batch');
    const def = numbered(topic);
    const batches: { events: EventEnvelope<Numbered>[]; context: BatchDeliveryContext }[] = [];
    await bus.subscribe({
      topics: [topic],
      group: 'batched',
      maxBatchSize: 50,
      batchHandler: async (envelopes, context) => {
        batches.push({ events: envelopes as EventEnvelope<Numbered>[], context });
      },
    });
    const keys = ['CP-A', 'CP-B', 'CP-C', 'CP-D', 'CP-E', 'CP-F'];
    await bus.publish(
      Array.from({ length: 600 }, (_, seq) => createEnvelope(def, keys[seq % keys.length], { seq })),
    );
    await eventually(() => expect(batches.flatMap((b) => b.events)).toHaveLength(600), 30_000);
    const received = batches.flatMap((b) => b.events);
    expect(new Set(received.map((e) => e.payload.seq)).size).toBe(600);
    for (const [key, seqs] of seqsByKey(received)) {
      expect({ key, seqs }).toEqual({ key, seqs: [...seqs].sort((a, b) => a - b) });
    }
    expect(Math.max(...batches.map((b) => b.events.length))).toBeGreaterThan(1);
    expect(Math.max(...batches.map((b) => b.events.length))).toBeLessThanOrEqual(50);
    // A batch never mixes partitions, and a key always comes from the same partition.
    const partitionOfKey = new Map<string, string>();
    for (const { events, context } of batches) {
      expect(context).toMatchObject({ group: 'batched', attempt: 1 });
      expect(context.partition.startsWith(`${topic}/`)).toBe(true);
      for (const e of events) {
        expect(partitionOfKey.get(e.key) ?? context.partition).toBe(context.partition);
        partitionOfKey.set(e.key, context.partition);
      }
    }
  });

  it('delivers a failing batch again one event at a time, parking only the event that keeps failing', async () => {
    const bus = newBus();
    const topic = newTopic('batchpoison');
    const def = numbered(topic);
    const committed: number[] = [];
    const sizes: number[] = [];
    await bus.subscribe({
      topics: [topic],
      group: 'settlement',
      maxBatchSize: 100,
      retry: { maxAttempts: 3, initialDelayMs: 10, maxDelayMs: 40 },
      batchHandler: async (envelopes) => {
        sizes.push(envelopes.length);
        const payloads = envelopes.map((e) => e.payload as Numbered);
        // All or nothing, as a transaction would: a poison event fails the whole batch.
        const poison = payloads.find((p) => p.poison);
        if (poison) throw new Error(`cannot settle seq ${poison.seq}`);
        committed.push(...payloads.map((p) => p.seq));
      },
    });
    const letters: EventEnvelope<DeadLetter>[] = [];
    await bus.subscribe({
      topics: [deadLetterTopic(topic)],
      group: 'dlq-reader',
      handler: async (envelope) => {
        letters.push(envelope as EventEnvelope<DeadLetter>);
      },
    });
    const poison = createEnvelope(def, 'CP-1', { seq: 3, poison: true });
    await bus.publish([
      ...[1, 2].map((seq) => createEnvelope(def, 'CP-1', { seq })),
      poison,
      ...[4, 5].map((seq) => createEnvelope(def, 'CP-1', { seq })),
    ]);
    await eventually(() => {
      expect(committed).toEqual([1, 2, 4, 5]);
      expect(letters).toHaveLength(1);
    }, 30_000);
    expect(letters[0].payload).toMatchObject({
      group: 'settlement',
      attempts: 3,
      error: 'Error: cannot settle seq 3',
      envelope: { eventId: poison.eventId, payload: { seq: 3, poison: true } },
    });
    // The poison event was tried alone exactly maxAttempts times after its batch failed.
    expect(sizes.filter((n) => n === 1).length).toBeGreaterThanOrEqual(3);
  });

  describe('with processes that die', () => {
    let db: TestDatabase;

    beforeAll(async () => {
      db = await createTestDatabase();
      await db.dataSource.query(
        `CREATE TABLE contract_effect (id bigserial PRIMARY KEY, event_id text NOT NULL, key text NOT NULL,
           seq int NOT NULL, pid int NOT NULL, batch uuid, batch_size int)`,
      );
    });
    afterAll(async () => {
      await db?.drop();
    });

    const effectCount = async () =>
      Number((await db.dataSource.query('SELECT count(*)::int AS n FROM contract_effect'))[0].n);
    const batchEffectCount = async () =>
      Number(
        (
          await db.dataSource.query('SELECT count(*)::int AS n FROM contract_effect WHERE batch IS NOT NULL')
        )[0].n,
      );

    it('loses nothing and duplicates no effect when a consumer is SIGKILLed mid-batch', async () => {
      const topic = newTopic('kill');
      const def = numbered(topic);
      const total = 300;
      const publisher = newBus();
      const sent = Array.from({ length: total }, (_, seq) => createEnvelope(def, `CP-${seq % 10}`, { seq }));
      await publisher.publish(sent);
      const env = {
        ...target.childEnv,
        TOPIC: topic,
        GROUP: 'killable',
        DATABASE_URL: db.url,
        HANDLER_DELAY_MS: '10',
      };

      const victim = spawnTs(`${FIXTURES}/consumer.process.ts`, env);
      children.push(victim);
      await victim.waitForLine(/^ready$/);
      await eventually(async () => expect(await effectCount()).toBeGreaterThanOrEqual(40), 30_000, 20);
      await victim.kill('SIGKILL');
      const afterKill = await effectCount();
      expect(afterKill).toBeLessThan(total); // it really died mid-way

      const survivor = spawnTs(`${FIXTURES}/consumer.process.ts`, env);
      children.push(survivor);
      await eventually(async () => expect(await effectCount()).toBe(total), 60_000, 100);
      await new Promise((resolve) => setTimeout(resolve, 500)); // anything extra would show up now

      const rows: { event_id: string; key: string; seq: number; pid: number }[] = await db.dataSource.query(
        'SELECT event_id, key, seq, pid FROM contract_effect ORDER BY id',
      );
      expect(rows).toHaveLength(total);
      expect(new Set(rows.map((r) => r.event_id)).size).toBe(total);
      expect(new Set(rows.map((r) => r.event_id))).toEqual(new Set(sent.map((e) => e.eventId)));
      expect(new Set(rows.map((r) => r.pid)).size).toBe(2);
      const byKey = new Map<string, number[]>();
      for (const r of rows) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r.seq]);
      for (const seqs of byKey.values()) expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    });

    it('commits a batch with its processed-event marks: a batch consumer SIGKILLed mid-batch loses nothing and repeats nothing', async () => {
      const topic = newTopic('killbatch');
      const def = numbered(topic);
      const total = 600;
      const sent = Array.from({ length: total }, (_, seq) => createEnvelope(def, `CP-${seq % 12}`, { seq }));
      await newBus().publish(sent);
      const victimName = `contract-victim-${randomUUID().slice(0, 8)}`;
      const env = {
        ...target.childEnv,
        TOPIC: topic,
        GROUP: 'killable-batch',
        DATABASE_URL: db.url,
        BATCH_SIZE: '25',
        HANDLER_DELAY_MS: '40',
      };
      const victim = spawnTs(`${FIXTURES}/consumer.process.ts`, { ...env, APPLICATION_NAME: victimName });
      children.push(victim);
      await victim.waitForLine(/^ready$/);
      await eventually(async () => expect(await batchEffectCount()).toBeGreaterThanOrEqual(60), 30_000, 20);
      // Kill it while a batch is written but not committed (the fixture sleeps inside its transaction).
      await eventually(
        async () => {
          const open = await db.dataSource.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE application_name = $1 AND state = 'idle in transaction'`,
            [victimName],
          );
          expect(open[0].n).toBeGreaterThan(0);
        },
        10_000,
        5,
      );
      await victim.kill('SIGKILL');
      const afterKill = await batchEffectCount();
      expect(afterKill).toBeLessThan(total);

      const survivor = spawnTs(`${FIXTURES}/consumer.process.ts`, env);
      children.push(survivor);
      await eventually(async () => expect(await batchEffectCount()).toBe(total), 60_000, 100);
      await new Promise((resolve) => setTimeout(resolve, 500)); // anything extra would show up now

      const rows: {
        event_id: string;
        key: string;
        seq: number;
        pid: number;
        batch: string;
        batch_size: number;
      }[] = await db.dataSource.query(
        `SELECT event_id, key, seq, pid, batch, batch_size FROM contract_effect
            WHERE batch IS NOT NULL ORDER BY id`,
      );
      expect(rows).toHaveLength(total);
      expect(new Set(rows.map((r) => r.event_id))).toEqual(new Set(sent.map((e) => e.eventId)));
      expect(new Set(rows.map((r) => r.pid)).size).toBe(2);
      // Every batch that committed did so whole: as many rows as the batch had events.
      const perBatch = new Map<string, { rows: number; size: number }>();
      for (const r of rows) {
        const b = perBatch.get(r.batch) ?? { rows: 0, size: r.batch_size };
        b.rows++;
        perBatch.set(r.batch, b);
      }
      for (const b of perBatch.values()) expect(b.rows).toBe(b.size);
      expect(Math.max(...[...perBatch.values()].map((b) => b.size))).toBeGreaterThan(1);
      const byKey = new Map<string, number[]>();
      for (const r of rows) byKey.set(r.key, [...(byKey.get(r.key) ?? []), r.seq]);
      for (const seqs of byKey.values()) expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    });

    it('loses no acknowledged event when a producer is SIGKILLed and another takes over', async () => {
      const topic = newTopic('producer');
      const received = new Set<number>();
      const bus = newBus();
      await bus.subscribe({
        topics: [topic],
        group: 'audit',
        handler: async (envelope) => {
          received.add((envelope.payload as Numbered).seq);
        },
      });
      const env = { ...target.childEnv, TOPIC: topic };
      const first = spawnTs(`${FIXTURES}/producer.process.ts`, { ...env, FROM: '0' });
      children.push(first);
      await first.waitForLine(/^published 150$/, 60_000);
      await first.kill('SIGKILL');
      const acknowledged = first.lines
        .filter((l) => l.startsWith('published '))
        .map((l) => Number(l.split(' ')[1]));

      const second = spawnTs(`${FIXTURES}/producer.process.ts`, { ...env, FROM: '100000', COUNT: '100' });
      children.push(second);
      await second.waitForLine(/^done$/, 60_000);

      const expected = [...acknowledged, ...Array.from({ length: 100 }, (_, i) => 100_000 + i)];
      await eventually(() => {
        const missing = expected.filter((seq) => !received.has(seq));
        expect(missing).toEqual([]);
      }, 30_000);
      expect(acknowledged.length).toBeGreaterThanOrEqual(151);
    });
  });
}
