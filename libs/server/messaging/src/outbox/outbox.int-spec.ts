import { randomUUID } from 'node:crypto';
import { defineEvent, type EventEnvelope } from '@voltdepot/shared-events';
import {
  createTestDatabase,
  eventually,
  spawnTs,
  testEnv,
  type TestDatabase,
  type TsProcess,
} from '@voltdepot/server-testing';
import type { EventBus } from '../bus';
import { createEnvelope } from '../envelope.factory';
import { RedisStreamsBus } from '../redis/redis-streams.bus';
import { addToOutbox } from './outbox';
import { OutboxRelay } from './outbox-relay';

const { redisUrl } = testEnv();
const prefix = `vdtest-outbox-${randomUUID().slice(0, 8)}`;
type Reading = { seq: number };

describe('transactional outbox', () => {
  let db: TestDatabase;
  let bus: EventBus;
  const children: TsProcess[] = [];
  const topic = () => `outbox.${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.dataSource.query('CREATE TABLE meter_reading (id serial PRIMARY KEY, seq int NOT NULL UNIQUE)');
    bus = new RedisStreamsBus({ url: redisUrl, prefix, blockMs: 100, trimIntervalMs: 0 });
  });
  afterEach(async () => {
    await Promise.all(children.splice(0).map((c) => c.kill()));
  });
  afterAll(async () => {
    await bus.close();
    await db.drop();
  });

  async function writeReadings(
    def: ReturnType<typeof readingEvent>,
    from: number,
    count: number,
    fail = false,
  ) {
    await db.dataSource.transaction(async (manager) => {
      for (let seq = from; seq < from + count; seq++) {
        await manager.query('INSERT INTO meter_reading (seq) VALUES ($1)', [seq]);
      }
      await addToOutbox(
        manager,
        Array.from({ length: count }, (_, i) =>
          createEnvelope(def, `CP-${(from + i) % 3}`, { seq: from + i }),
        ),
      );
      if (fail) throw new Error('business rule failed after writing');
    });
  }
  const readingEvent = (t: string) => defineEvent<Reading>()(t, 'reading.recorded', 1);

  async function collect(t: string, group = 'reader') {
    const received: EventEnvelope<Reading>[] = [];
    await bus.subscribe({
      topics: [t],
      group,
      handler: async (e) => void received.push(e as EventEnvelope<Reading>),
    });
    return received;
  }

  it('commits the event with the state change, or neither', async () => {
    const t = topic();
    const def = readingEvent(t);
    await writeReadings(def, 1, 2);
    await expect(writeReadings(def, 3, 2, true)).rejects.toThrow('business rule failed');
    const rows = await db.dataSource.query(`SELECT payload FROM outbox_event WHERE topic = $1 ORDER BY id`, [
      t,
    ]);
    expect(rows.map((r: { payload: Reading }) => r.payload.seq)).toEqual([1, 2]);
    expect(await db.dataSource.query('SELECT seq FROM meter_reading WHERE seq >= 3')).toEqual([]);
  });

  it('ignores an event written twice with the same id', async () => {
    const t = topic();
    const envelope = createEnvelope(readingEvent(t), 'CP-1', { seq: 99 });
    await addToOutbox(db.dataSource.manager, envelope);
    await addToOutbox(db.dataSource.manager, envelope);
    const rows = await db.dataSource.query(
      'SELECT count(*)::int AS n FROM outbox_event WHERE event_id = $1',
      [envelope.eventId],
    );
    expect(rows[0].n).toBe(1);
  });

  it('relays in outbox order and marks what it published', async () => {
    const t = topic();
    const received = await collect(t);
    await writeReadings(readingEvent(t), 100, 30);
    const relay = new OutboxRelay(db.dataSource, bus, { batchSize: 7 });
    while ((await relay.relayOnce()) > 0);
    await eventually(() => expect(received).toHaveLength(30));
    const perKey = new Map<string, number[]>();
    for (const e of received) perKey.set(e.key, [...(perKey.get(e.key) ?? []), e.payload.seq]);
    for (const seqs of perKey.values()) expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const [{ n }] = await db.dataSource.query(
      'SELECT count(*)::int AS n FROM outbox_event WHERE topic = $1 AND published_at IS NULL',
      [t],
    );
    expect(n).toBe(0);
  });

  it('while events keep coming, publishes them in rounds at most every busyCycleMs, none lost or reordered', async () => {
    const t = topic();
    const received = await collect(t);
    const rounds: number[] = [];
    const relay = new OutboxRelay(db.dataSource, bus, {
      idleMs: 5_000,
      busyCycleMs: 200,
      onPublished: (count) => rounds.push(count),
    });
    relay.start();
    const started = performance.now();
    let writing = 0;
    try {
      // 60 commits of one event each, 10 ms apart, each nudging the relay as the gateway does.
      for (let seq = 0; seq < 60; seq++) {
        await writeReadings(readingEvent(t), 50_000 + seq, 1);
        relay.nudge();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      writing = performance.now() - started;
      await eventually(() => expect(received).toHaveLength(60));
    } finally {
      await relay.stop();
    }
    // Without the cycle each nudge would start a round of one or two rows (30-60 rounds); with it, one
    // round per 200 ms while the commits went on (~0.6 s idle, longer on a loaded machine), plus the
    // last one after them and one that may have picked up rows of earlier tests.
    expect(rounds.length).toBeLessThanOrEqual(Math.ceil(writing / 200) + 2);
    expect(rounds.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(60);
    const perKey = new Map<string, number[]>();
    for (const e of received) perKey.set(e.key, [...(perKey.get(e.key) ?? []), e.payload.seq]);
    for (const seqs of perKey.values()) expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('lets one relay publish at a time: another finds nothing while the first is in its round', async () => {
    const t = topic();
    const received = await collect(t);
    await writeReadings(readingEvent(t), 300, 4);
    let entered!: () => void;
    const publishing = new Promise<void>((resolve) => (entered = resolve));
    let proceed!: () => void;
    const held = new Promise<void>((resolve) => (proceed = resolve));
    const slowBus: EventBus = {
      ...bus,
      driver: bus.driver,
      publish: async (envelopes) => {
        entered();
        await held;
        await bus.publish(envelopes);
      },
      subscribe: (o) => bus.subscribe(o),
      ping: () => bus.ping(),
      close: async () => undefined,
    };
    const first = new OutboxRelay(db.dataSource, slowBus);
    const firstRound = first.relayOnce();
    await publishing;
    const second = new OutboxRelay(db.dataSource, bus);
    expect(await second.relayOnce()).toBe(0);
    proceed();
    expect(await firstRound).toBeGreaterThanOrEqual(4);
    // The first marked what it published: nothing is left for the second, nothing was sent twice.
    expect(await second.relayOnce()).toBe(0);
    await eventually(() =>
      expect(received.map((e) => e.payload.seq).sort((a, b) => a - b)).toEqual([300, 301, 302, 303]),
    );
  });

  it('publishes again, never skips, when it fails between publishing and marking', async () => {
    const t = topic();
    const received = await collect(t);
    await writeReadings(readingEvent(t), 200, 5);
    let crashes = 1;
    const crashingBus: EventBus = {
      ...bus,
      driver: bus.driver,
      publish: async (envelopes) => {
        await bus.publish(envelopes);
        if (crashes-- > 0) throw new Error('relay died before marking');
      },
      subscribe: (o) => bus.subscribe(o),
      ping: () => bus.ping(),
      close: async () => undefined,
    };
    const relay = new OutboxRelay(db.dataSource, crashingBus);
    await expect(relay.relayOnce()).rejects.toThrow('relay died before marking');
    // The failed round rolled back: no pooled connection is left inside its transaction.
    const [{ open }] = await db.dataSource.query(
      `SELECT count(*)::int AS open FROM pg_stat_activity
        WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
    );
    expect(open).toBe(0);
    expect(await relay.relayOnce()).toBe(5);
    await eventually(() => expect(received).toHaveLength(10));
    expect(new Set(received.map((e) => e.eventId)).size).toBe(5); // each event twice, none missing
  });

  it('loses nothing when the relay process is SIGKILLed mid-way and another relay takes over', async () => {
    const t = topic();
    const received = await collect(t);
    const total = 3000;
    for (let from = 1000; from < 1000 + total; from += 500) await writeReadings(readingEvent(t), from, 500);
    const env = {
      DATABASE_URL: db.url,
      BUS: 'redis',
      REDIS_URL: redisUrl,
      BUS_PREFIX: prefix,
      BATCH_SIZE: '50',
    };
    const first = spawnTs('libs/server/messaging/src/outbox/fixtures/relay.process.ts', env);
    children.push(first);
    await first.waitForLine(/^relayed ([3-9]\d\d|\d{4,})$/, 60_000);
    await first.kill('SIGKILL');
    const [{ n: left }] = await db.dataSource.query(
      'SELECT count(*)::int AS n FROM outbox_event WHERE topic = $1 AND published_at IS NULL',
      [t],
    );
    expect(left).toBeGreaterThan(0); // it died with work left

    const second = spawnTs('libs/server/messaging/src/outbox/fixtures/relay.process.ts', env);
    children.push(second);
    await eventually(() => expect(new Set(received.map((e) => e.payload.seq)).size).toBe(total), 60_000);
    // The relay marks a batch after publishing it: the last marks may commit a moment after delivery.
    await eventually(async () => {
      const [{ n: unpublished }] = await db.dataSource.query(
        'SELECT count(*)::int AS n FROM outbox_event WHERE topic = $1 AND published_at IS NULL',
        [t],
      );
      expect(unpublished).toBe(0);
    }, 30_000);
  });
});
