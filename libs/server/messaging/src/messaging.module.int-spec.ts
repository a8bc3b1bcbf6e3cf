import { randomUUID } from 'node:crypto';
import { Global, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createTestDatabase, eventually, testEnv, type TestDatabase } from '@voltdepot/server-testing';
import { defineEvent, type EventEnvelope } from '@voltdepot/shared-events';
import { DataSource } from 'typeorm';
import type { EventBus } from './bus';
import { createEnvelope } from './envelope.factory';
import { MessagingModule, OUTBOX_RELAY, type MessagingOptions } from './messaging.module';
import { addToOutbox } from './outbox/outbox';
import type { OutboxRelay } from './outbox/outbox-relay';
import { RedisStreamsBus } from './redis/redis-streams.bus';

const { redisUrl } = testEnv();
const prefix = `vdtest-msgmod-${randomUUID().slice(0, 8)}`;
const topic = `module.${randomUUID().slice(0, 8)}`;
const Noted = defineEvent<{ n: number }>()(topic, 'thing.noted', 1);

describe('MessagingModule and its outbox relay (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let reader: EventBus;
  const received: EventEnvelope[] = [];
  const apps: INestApplicationContext[] = [];

  /** A process's root module: its DataSource (as the apps provide it) and the messaging module. */
  async function process(options?: MessagingOptions): Promise<INestApplicationContext> {
    @Global()
    @Module({ providers: [{ provide: DataSource, useValue: db.dataSource }], exports: [DataSource] })
    class DatabaseModule {}
    @Module({
      imports: [DatabaseModule, MessagingModule.forRoot({ driver: 'redis', url: redisUrl, prefix }, options)],
    })
    class RootModule {}
    const app = await NestFactory.createApplicationContext(RootModule, {
      logger: false,
      abortOnError: false,
    });
    apps.push(app);
    return app;
  }

  const write = (n: number) =>
    db.dataSource.transaction((m) => addToOutbox(m, createEnvelope(Noted, 'K', { n })));
  const unpublished = async () =>
    Number(
      (await db.dataSource.query(`SELECT count(*)::int AS n FROM outbox_event WHERE published_at IS NULL`))[0]
        .n,
    );

  beforeAll(async () => {
    db = await createTestDatabase();
    reader = new RedisStreamsBus({ url: redisUrl, prefix, blockMs: 100, trimIntervalMs: 0 });
    await reader.subscribe({ topics: [topic], group: 'reader', handler: async (e) => void received.push(e) });
  });
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  afterAll(async () => {
    await reader.close();
    await db.drop();
  });

  it('runs no relay when switched off: nothing is published, and there is no relay to nudge', async () => {
    const app = await process({ outboxRelay: false });
    expect(() => app.get(OUTBOX_RELAY)).toThrow();
    await write(1);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await unpublished()).toBe(1);
    expect(received).toEqual([]);
  });

  it('runs a relay by default that publishes what is in the outbox, at once when nudged', async () => {
    const app = await process({ outboxRelay: { idleMs: 60_000 } });
    // Left by the process without a relay: published by this one's first round.
    await eventually(() => expect(received.map((e) => e.payload)).toEqual([{ n: 1 }]));
    // With a minute between idle polls, only the nudge makes it leave now.
    await write(2);
    app.get<OutboxRelay>(OUTBOX_RELAY).nudge();
    await eventually(() => expect(received.map((e) => e.payload)).toEqual([{ n: 1 }, { n: 2 }]), 3_000);
    expect(await unpublished()).toBe(0);
  });

  it('lets two processes run relays side by side: one publishes at a time, nothing twice', async () => {
    received.length = 0;
    const [a, b] = [await process(), await process()];
    for (let n = 10; n < 60; n++) {
      await write(n);
      (n % 2 ? a : b).get<OutboxRelay>(OUTBOX_RELAY).nudge();
    }
    await eventually(() => expect(received).toHaveLength(50), 10_000);
    expect(received.map((e) => (e.payload as { n: number }).n)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 10),
    );
    // Stopping a process stops its relay before its bus: the other one carries on.
    await a.close();
    apps.splice(apps.indexOf(a), 1);
    await write(60);
    await eventually(() => expect(received).toHaveLength(51));
  });
});
