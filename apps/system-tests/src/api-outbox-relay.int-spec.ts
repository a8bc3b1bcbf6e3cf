/**
 * The api publishes its own events: with no OCPP gateway running (its relay used to be the only one),
 * a session announced on the bus is settled by the api worker, and the order's `order.settled` reaches a
 * consumer through the outbox relay of the api's processes. Real processes, both bus drivers.
 */
import { randomUUID } from 'node:crypto';
import { busConfigFromEnv, createEnvelope, createEventBus, type EventBus } from '@voltdepot/server-messaging';
import { createTestDatabase, eventually, type TestDatabase } from '@voltdepot/server-testing';
import {
  OrderSettled,
  TransactionStarted,
  TransactionStopped,
  type EventEnvelope,
  type OrderSettledV2,
} from '@voltdepot/shared-events';
import { seedTestDepot } from './fixtures/depot';
import { busDrivers, platformEnv, startPlatform, type RunningPlatform } from './fixtures/platform';

describe.each(busDrivers())('order.settled without the gateway (bus %j)', (busEnv) => {
  let db: TestDatabase;
  let platform: RunningPlatform;
  let bus: EventBus;
  const prefix = `vdrel${randomUUID().slice(0, 6)}`;
  const chargePointId = `REL-${randomUUID().slice(0, 4)}`;
  const settled: EventEnvelope<OrderSettledV2>[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    await seedTestDepot(db, { chargePointIds: [chargePointId], password: 'pile-secret' }, ['BUS-0001']);
    // The api and its worker only: no gateway, no msg-center.
    platform = await startPlatform({
      databaseUrl: db.url,
      prefix,
      busEnv,
      without: ['gateway', 'msgCenter', 'msgCenterWorker'],
    });
    bus = createEventBus(
      busConfigFromEnv(platformEnv({ databaseUrl: db.url, prefix, busEnv }), 'relay-test'),
    );
    await bus.subscribe({
      topics: [OrderSettled.topic],
      group: 'relay-test.orders',
      // Kafka: a new group starts at the beginning of the topic, so nothing published before is missed.
      handler: async (envelope) => {
        if (OrderSettled.is(envelope)) settled.push(envelope);
      },
    });
  }, 180_000);

  afterAll(async () => {
    await bus?.close();
    await platform?.close();
    await db?.drop();
  });

  it('settles a session announced on the bus and publishes its order.settled from the api', async () => {
    expect(Object.keys(platform.processes).sort()).toEqual(['api', 'apiWorker']);
    const transactionId = 4711;
    // What the gateway would have announced (10:00-11:00 business time, 20 kWh).
    await bus.publish([
      createEnvelope(TransactionStarted, chargePointId, {
        chargePointId,
        connectorId: 1,
        transactionId,
        idTag: 'BUS-0001',
        meterStartWh: 100_000,
        timestamp: '2025-06-02T02:00:00.000Z',
        idTagStatus: 'Accepted',
      }),
      createEnvelope(TransactionStopped, chargePointId, {
        chargePointId,
        connectorId: 1,
        transactionId,
        meterStartWh: 100_000,
        meterStopWh: 120_000,
        energyWh: 20_000,
        timestamp: '2025-06-02T03:00:00.000Z',
        reason: 'EVDisconnected',
        stopKind: 'normal',
        quarantined: false,
      }),
    ]);
    const event = await eventually(() => {
      const found = settled.find((e) => e.payload.chargePointId === chargePointId);
      expect(found).toBeDefined();
      return found!;
    }, 60_000);
    const [order] = await db.dataSource.query(
      `SELECT order_no, total_fen, energy_wh FROM charging_order WHERE charge_point_id = $1`,
      [chargePointId],
    );
    expect(event.payload).toEqual(
      expect.objectContaining({
        orderNo: order.order_no,
        transactionId,
        energyWh: 20_000,
        totalFen: Number(order.total_fen),
        payStatus: 0,
      }),
    );
    // Priced by the depot's plan (20 kWh in its peak band), not held.
    expect(event.payload.totalFen).toBeGreaterThan(0);
  });
});
