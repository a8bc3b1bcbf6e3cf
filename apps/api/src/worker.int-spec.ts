/**
 * The api's two processes (real PostgreSQL and Redis): settlement runs in the worker and not in the HTTP
 * process, the worker's own outbox relay publishes the orders' `order.settled` (no gateway here), the
 * lost-stop sweep is a scheduled job that several worker replicas run once, and the worker serves only
 * /health and /metrics.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { LOST_STOP_BATCH, LostStopSweepJob } from '@voltdepot/server-billing';
import { createServiceApp } from '@voltdepot/server-core';
import {
  busConfigFromService,
  createEnvelope,
  createEventBus,
  type EventBus,
} from '@voltdepot/server-messaging';
import {
  eventually,
  registeredRoutes,
  securityHeadersOf,
  SERVICE_SECURITY_HEADERS,
  testEnv,
} from '@voltdepot/server-testing';
import {
  OrderSettled,
  TransactionStarted,
  TransactionStopped,
  type EventEnvelope,
  type OrderSettledV2,
} from '@voltdepot/shared-events';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import request from 'supertest';
import { startApiTestApp, type ApiTestApp } from './fixtures/api-test-app';
import { WorkerModule } from './worker.module';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const BUS_PREFIX = `vdtwrk${randomBytes(4).toString('hex')}`;

/** A start and its stop of one pile transaction, as the gateway announces them. */
function session(chargePointId: string, transactionId: number): EventEnvelope[] {
  return [
    createEnvelope(TransactionStarted, chargePointId, {
      chargePointId,
      connectorId: 1,
      transactionId,
      idTag: 'CARD-1',
      meterStartWh: 1_000,
      timestamp: '2025-06-01T02:00:00.000Z',
      idTagStatus: 'Accepted',
    }),
    createEnvelope(TransactionStopped, chargePointId, {
      chargePointId,
      connectorId: 1,
      transactionId,
      meterStartWh: 1_000,
      meterStopWh: 21_000,
      energyWh: 20_000,
      timestamp: '2025-06-01T03:00:00.000Z',
      reason: 'EVDisconnected',
      stopKind: 'normal',
      quarantined: false,
    }),
  ];
}

describe('the api worker', () => {
  let t: ApiTestApp;
  let bus: EventBus;
  const workers: INestApplicationContext[] = [];
  const settled: EventEnvelope<OrderSettledV2>[] = [];
  /** A fresh queue namespace for the sweep's replicas: their schedule starts with them. */
  const sweepQueues = `test-api-sweep-${randomBytes(4).toString('hex')}`;
  const startWorker = async (queuePrefix = t.config.API_QUEUE_PREFIX) => {
    const config = { ...t.config, API_QUEUE_PREFIX: queuePrefix };
    const worker = await NestFactory.createApplicationContext(WorkerModule.register(config), {
      logger: false,
      abortOnError: false,
    });
    workers.push(worker);
    return worker;
  };
  const orderCount = async (chargePointPrefix: string) =>
    Number(
      (
        await t.db.dataSource.query(
          `SELECT count(*)::int AS n FROM charging_order WHERE charge_point_id LIKE $1`,
          [`${chargePointPrefix}%`],
        )
      )[0].n,
    );

  beforeAll(async () => {
    // The HTTP process alone: it settles nothing (no consumer), whatever the bus brings.
    t = await startApiTestApp({ BUS_PREFIX, BILLING_LOST_STOP_MINUTES: '1' });
    bus = createEventBus(busConfigFromService(t.config, 'worker-test'));
    await bus.subscribe({
      topics: [OrderSettled.topic],
      group: 'worker-test.orders',
      handler: async (envelope) => {
        if (OrderSettled.is(envelope)) settled.push(envelope);
      },
    });
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await bus?.close();
    await t?.close();
    const redis = new Redis(testEnv().redisUrl);
    const keys = [...(await redis.keys(`${BUS_PREFIX}:*`)), ...(await redis.keys(`${sweepQueues}:*`))];
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('settles in the worker, not in the HTTP process, and its own relay publishes order.settled', async () => {
    await bus.publish(session('WRK-A', 11));
    await sleep(1_500);
    expect(await orderCount('WRK-A')).toBe(0);

    await startWorker();
    await eventually(async () => expect(await orderCount('WRK-A')).toBe(1), 30_000);
    // Only the api's processes run here: the event left through the worker's (or the HTTP process's)
    // relay, within moments (the settlement commit nudges it).
    const event = await eventually(() => {
      const found = settled.find((e) => e.payload.chargePointId === 'WRK-A');
      expect(found).toBeDefined();
      return found!;
    }, 10_000);
    expect(event.payload).toEqual(
      expect.objectContaining({ transactionId: 11, energyWh: 20_000, stoppedAt: '2025-06-01T03:00:00.000Z' }),
    );
    // Marked published in the round's commit, just after the broker took it.
    await eventually(async () => {
      const [{ unpublished }] = await t.db.dataSource.query(
        `SELECT count(*)::int AS unpublished FROM outbox_event WHERE published_at IS NULL`,
      );
      expect(unpublished).toBe(0);
    });
    await Promise.all(workers.splice(0).map((w) => w.close()));
  });

  it('sweeps lost stops in one scheduled run however many replicas run, each stop one order', async () => {
    const lost = LOST_STOP_BATCH * 2 + 7; // three batches
    await t.db.dataSource.query(
      `INSERT INTO billing_pending_stop (charge_point_id, transaction_id, payload, received_at)
       SELECT 'WRK-LOST-' || i, i, jsonb_build_object(
                'chargePointId', 'WRK-LOST-' || i, 'connectorId', 1, 'transactionId', i,
                'meterStartWh', 0, 'meterStopWh', 5000, 'energyWh', 5000,
                'timestamp', '2025-06-01T03:00:00.000Z', 'reason', 'Local', 'stopKind', 'normal',
                'quarantined', false),
              now() - interval '1 hour'
         FROM generate_series(1, $1) AS i`,
      [lost],
    );
    // A fresh schedule runs at once; a second replica joins the same schedule and the same queue.
    await Promise.all([startWorker(sweepQueues), startWorker(sweepQueues)]);
    await eventually(async () => expect(await orderCount('WRK-LOST-')).toBe(lost), 30_000);
    const connection = new Redis(testEnv().redisUrl);
    const queue = new Queue(LostStopSweepJob.name, { connection, prefix: sweepQueues });
    try {
      const runs = await eventually(async () => {
        const completed = await queue.getCompleted();
        expect(completed.length).toBeGreaterThan(0);
        return completed;
      });
      // One run took them all (the schedule's slot is 30 s with a 1-minute wait).
      expect(runs.map((r) => [r.id?.startsWith('repeat:billing.lost-stop-sweep:'), r.returnvalue])).toEqual([
        [true, lost],
      ]);
      expect(await queue.getJobSchedulersCount()).toBe(1);
    } finally {
      await queue.close();
      connection.disconnect();
    }
    const [{ events }] = await t.db.dataSource.query(
      `SELECT count(*)::int AS events FROM outbox_event WHERE type = 'order.settled' AND key LIKE 'WRK-LOST-%'`,
    );
    expect(events).toBe(lost);
    const [{ held }] = await t.db.dataSource.query(
      `SELECT count(*)::int AS held FROM charging_order
        WHERE charge_point_id LIKE 'WRK-LOST-%' AND pay_status = 3 AND abnormal_reasons = '{startMissing}'`,
    );
    expect(held).toBe(lost);
  });

  it('serves /health and /metrics and no other route', async () => {
    const config = { ...t.config, SERVICE_NAME: 'api' };
    const { app } = await createServiceApp(WorkerModule.register(config), { config });
    try {
      await app.listen(0, '127.0.0.1');
      expect([...registeredRoutes(app).keys()].sort()).toEqual(['GET /health', 'GET /metrics']);
      const url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
      const health = await request(url).get('/health').expect(200);
      expect(health.body.service).toBe('api-worker');
      expect(securityHeadersOf(health.headers)).toEqual(SERVICE_SECURITY_HEADERS);
      expect(health.body.dependencies.map((c: { name: string }) => c.name).sort()).toEqual([
        'bus:redis',
        'postgres',
        'redis',
      ]);
      const metrics = (await request(url).get('/metrics').expect(200)).text;
      expect(metrics).toContain('voltdepot_job_runs_total');
      expect(metrics).toContain('voltdepot_outbox_backlog');
      expect(metrics).toContain('voltdepot_iccard_cards_skipped_total'); // the IC-card sync's skipped cards
      await request(url).get('/api/order/page/1/size/10').expect(404);
    } finally {
      await app.close();
    }
  });
});
