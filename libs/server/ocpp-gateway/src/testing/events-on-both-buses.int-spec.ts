import { randomUUID } from 'node:crypto';
import { KafkaBus, RedisStreamsBus, type EventBus } from '@voltdepot/server-messaging';
import { eventually, testEnv } from '@voltdepot/server-testing';
import type { EventEnvelope } from '@voltdepot/shared-events';
import { SimulatedPile } from '@voltdepot/server-ocpp-simulator';
import { GatewayTestHarness } from './fixtures/gateway-test-harness';

// Kafka runs at 127.0.0.1:19092 in the local infra (scripts/infra.sh up --kafka).
const kafkaBrokers = testEnv().kafkaBrokers ?? ['127.0.0.1:19092'];

const drivers: [string, (prefix: string) => EventBus][] = [
  [
    'redis',
    (prefix) => new RedisStreamsBus({ url: testEnv().redisUrl, prefix, blockMs: 100, trimIntervalMs: 0 }),
  ],
  [
    'kafka',
    (prefix) =>
      new KafkaBus({ brokers: kafkaBrokers, clientId: prefix, topicPrefix: `${prefix}.`, partitions: 2 }),
  ],
];

describe.each(drivers)('pile story end to end on the %s bus', (_driver, makeBus) => {
  const h = new GatewayTestHarness();
  let pile: SimulatedPile;

  beforeAll(async () => {
    await h.start({}, makeBus(`vdtest-${randomUUID().slice(0, 8)}`));
    await h.addIdTag('BUS-E2E', 'Accepted');
    pile = new SimulatedPile({
      url: h.url,
      chargePointId: 'E2E-1',
      password: await h.addPile('E2E-1'),
      connectors: 1,
      meterIntervalMs: 50,
      timeScale: 600,
    });
  });
  afterAll(async () => {
    await pile.stop();
    await h.stop();
  });

  it('delivers connected, booted, status, started, meter values and stopped in the order they happened, keyed by pile', async () => {
    await pile.start();
    const session = await pile.startSession(1, 'BUS-E2E', { autoStop: false });
    await new Promise((r) => setTimeout(r, 250));
    await pile.stopSession(1, 'EVDisconnected');
    await pile.drained();

    const story = await eventually(() => {
      const mine = h.events.filter((e: EventEnvelope) => e.key === 'E2E-1');
      if (!mine.some((e) => e.type === 'transaction.stopped')) throw new Error('stop not delivered yet');
      return mine;
    }, 30_000);
    // Per-key order is per topic (Kafka promises nothing across topics): each topic's events of the
    // pile keep the order they happened in.
    const statusTypes = story.filter((e) => e.topic === 'ocpp.status').map((e) => e.type);
    expect(statusTypes.slice(0, 2)).toEqual(['pile.connected', 'pile.booted']);
    const txTypes = story.filter((e) => e.topic === 'ocpp.transactions').map((e) => e.type);
    expect(txTypes[0]).toBe('transaction.started');
    expect(txTypes[txTypes.length - 1]).toBe('transaction.stopped');
    expect(txTypes.slice(1, -1)).toContain('meter-values.received');
    expect(txTypes.filter((t) => t === 'transaction.stopped')).toHaveLength(1);
    expect(story.find((e) => e.type === 'transaction.stopped')!.payload).toMatchObject({
      transactionId: session.transactionId,
      energyWh: session.energyWh,
      stopKind: 'normal',
    });
    // Exactly once each (no duplicate publication from the outbox).
    expect(new Set(story.map((e) => e.eventId)).size).toBe(story.length);
  });
});
