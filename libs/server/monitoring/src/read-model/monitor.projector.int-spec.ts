/**
 * The read model on real Redis, fed through both bus drivers: built from the gateway's events, unmoved by
 * redelivered and late events, and rebuilt from the bus after its keys are flushed.
 */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import Redis from 'ioredis';
import {
  ConnectorStatusChanged,
  MeterValuesReceived,
  PileBooted,
  PileConnected,
  TransactionStarted,
  TransactionStopped,
  type EventEnvelope,
} from '@voltdepot/shared-events';
import { createEnvelope, KafkaBus, RedisStreamsBus, type EventBus } from '@voltdepot/server-messaging';
import { eventually, testEnv } from '@voltdepot/server-testing';
import { MONITOR_TOPICS, monitorGroup, MonitorProjector } from './monitor.projector';
import { ReadModelKeys } from './read-model.keys';
import { ReadModelStore } from './read-model.store';
import { pileState, type PileState } from './views';

const env = testEnv();
type Driver = { name: string; makeBus: (prefix: string) => EventBus };
const drivers: Driver[] = [
  {
    name: 'redis',
    makeBus: (prefix) =>
      new RedisStreamsBus({ url: env.redisUrl, prefix, blockMs: 100, leaseMs: 2_000, trimIntervalMs: 0 }),
  },
];
if (env.kafkaBrokers) {
  const brokers = env.kafkaBrokers;
  drivers.push({
    name: 'kafka',
    makeBus: (prefix) =>
      new KafkaBus({ brokers, clientId: prefix, topicPrefix: `${prefix}.`, sessionTimeoutMs: 6_000 }),
  });
}

const T0 = Date.parse('2025-03-01T18:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

describe.each(drivers)('monitoring read model on the $name bus', ({ name, makeBus }) => {
  const prefix = `vdmon-${name}-${randomUUID().slice(0, 6)}`;
  const cp = `CP-${randomUUID().slice(0, 6)}`;
  const keys = ReadModelKeys.forBusPrefix(prefix);
  let bus: EventBus;
  let redis: Redis;
  let store: ReadModelStore;
  const projectors: MonitorProjector[] = [];
  const errors: string[] = [];

  const event = <P>(
    definition: Parameters<typeof createEnvelope<string, P>>[0],
    payload: P,
    occurredAt: string,
  ): EventEnvelope =>
    createEnvelope(definition, cp, payload, { occurredAt, correlationId: `${cp}:session-1` });
  const status = (connectorId: number, s: string, seconds: number) =>
    event(
      ConnectorStatusChanged,
      { chargePointId: cp, connectorId, status: s, errorCode: 'NoError', timestamp: at(seconds) },
      at(seconds),
    );
  const meter = (seconds: number, registerWh: number, powerW: number, soc: number) =>
    event(
      MeterValuesReceived,
      {
        chargePointId: cp,
        connectorId: 1,
        transactionId: 501,
        flagged: false,
        samples: [
          {
            timestamp: at(seconds),
            measurand: 'Energy.Active.Import.Register',
            value: registerWh,
            unit: 'Wh',
          },
          { timestamp: at(seconds), measurand: 'Power.Active.Import', value: powerW, unit: 'W' },
          { timestamp: at(seconds), measurand: 'SoC', value: soc, unit: 'Percent' },
        ],
      },
      at(seconds),
    );

  /** What the gateway announces for a pile that boots and starts charging a bus on gun 1. */
  const story: EventEnvelope[] = [
    event(PileConnected, { chargePointId: cp, replicaId: 'gw-1' }, at(0)),
    event(
      PileBooted,
      { chargePointId: cp, vendor: 'Voltdepot', model: 'DC-240', registrationStatus: 'Accepted' },
      at(1),
    ),
    status(0, 'Available', 2),
    status(1, 'Available', 2),
    status(2, 'Available', 2),
    status(1, 'Preparing', 60),
    event(
      TransactionStarted,
      {
        chargePointId: cp,
        connectorId: 1,
        transactionId: 501,
        idTag: 'BUS0001',
        meterStartWh: 1_000_000,
        timestamp: at(61),
        idTagStatus: 'Accepted',
      },
      at(61),
    ),
    status(1, 'Charging', 62),
    meter(70, 1_000_500, 118_000, 31.5),
    meter(80, 1_001_200, 120_000, 32),
  ];

  const readState = async (): Promise<PileState> =>
    pileState((await store.readPiles([cp], new Map([[cp, [1, 2]]]))).get(cp)!);
  const statusHistory = async (connectorId: number) => redis.zcard(keys.gunStatuses(cp, connectorId));
  const startProjector = async () => {
    const projector = new MonitorProjector(bus, store, redis, async () => undefined, {
      epochCheckMs: 200,
      staleGroupGraceMs: 300,
      onError: (error, context) => errors.push(`${context}: ${(error as Error).message}`),
    });
    projectors.push(projector);
    await projector.start();
    return projector;
  };

  beforeAll(async () => {
    bus = makeBus(prefix);
    redis = new Redis(env.redisUrl);
    store = new ReadModelStore(redis, keys);
    await startProjector();
    await startProjector(); // a second replica shares the group
    await bus.publish(story);
  }, 60_000);

  afterAll(async () => {
    for (const projector of projectors) await projector.stop();
    await bus?.close();
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (found.length) await redis.del(...found);
      cursor = next;
    } while (cursor !== '0');
    await redis.quit();
  });

  it('shows the charging gun with its power, energy and SoC, and the idle one', async () => {
    // The two topics are ordered each on its own: wait for the last event of both.
    const state = await eventually(async () => {
      const s = await readState();
      expect([s.guns[0].powerW, s.guns[0].ocppStatus]).toEqual([120_000, 'Charging']);
      return s;
    }, 30_000);
    expect(state).toEqual(
      expect.objectContaining({
        online: true,
        onlineSince: at(0),
        vendor: 'Voltdepot',
        model: 'DC-240',
        ocppStatus: 'Available',
      }),
    );
    expect(state.guns).toEqual([
      expect.objectContaining({
        connectorId: 1,
        status: 'charging',
        ocppStatus: 'Charging',
        since: at(62),
        transactionId: 501,
        idTag: 'BUS0001',
        sessionStartedAt: at(61),
        energyWh: 1_200,
        soc: 32,
        sampledAt: at(80),
      }),
      expect.objectContaining({ connectorId: 2, status: 'idle', since: at(2), transactionId: null }),
    ]);
  });

  it('is unmoved by redelivered events and by late ones', async () => {
    await eventually(async () => expect((await readState()).guns[0].sampledAt).toBe(at(80)), 30_000);
    const before = await readState();
    const historyBefore = [await statusHistory(1), await statusHistory(2)];
    // Every event again (same ids: a redelivery), then late news: an old status and an old sample.
    await bus.publish([...story, status(1, 'Preparing', 61), meter(65, 1_000_100, 50_000, 31)]);
    // Events of one pile arrive in order, per topic: once these show, everything before them was handled.
    await bus.publish([meter(90, 1_001_900, 119_000, 33), status(2, 'Available', 95)]);
    const after = await eventually(async () => {
      const s = await readState();
      expect(s.guns[0].sampledAt).toBe(at(90));
      expect(await statusHistory(2)).toBe(historyBefore[1] + 1);
      return s;
    }, 30_000);
    expect(after.guns[0]).toEqual({
      ...before.guns[0],
      powerW: 119_000,
      energyWh: 1_900,
      soc: 33,
      sampledAt: at(90),
    });
    // Still available since the first notification: a repeated status does not restart "since".
    expect(after.guns[1]).toEqual(before.guns[1]);
    // The redelivered status events were not recorded twice; the late one was, below the newer ones.
    expect(await statusHistory(1)).toBe(historyBefore[0] + 1);
  });

  it('rebuilds itself from the bus after its keys are flushed, and drops the old consumer group', async () => {
    const before = await eventually(async () => {
      const s = await readState();
      expect(s.guns[0].sampledAt).toBe(at(90));
      expect(s.guns[1].since).toBe(at(2));
      return s;
    }, 30_000);
    const oldEpoch = projectors[0].epoch!;
    expect(projectors[1].epoch).toBe(oldEpoch);

    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', keys.pattern, 'COUNT', 500);
      if (found.length) await redis.del(...found);
      cursor = next;
    } while (cursor !== '0');
    expect((await readState()).guns[0].status).toBe('offline');

    // Both topics replayed: the same state as before the loss.
    await eventually(async () => expect(await readState()).toEqual(before), 45_000);
    const newEpoch = await store.epoch();
    expect(newEpoch).not.toBeNull();
    expect(newEpoch).not.toBe(oldEpoch);
    // Every replica follows the new generation.
    await eventually(() => expect(projectors.map((p) => p.epoch)).toEqual([newEpoch, newEpoch]), 30_000);

    await eventually(
      async () => expect(await groupsOf(bus, redis)).not.toContain(monitorGroup(oldEpoch)),
      30_000,
    );
    expect(await groupsOf(bus, redis)).toContain(monitorGroup(newEpoch!));
    // Allowed: Redis reading a group just dropped (NOGROUP), and a subscription the projector retried
    // (Kafka may answer a new group before its metadata caught up): the state above shows it worked.
    const transient = (e: string) => e.includes('NOGROUP') || /: subscribing \S+ \(attempt \d+\)/.test(e);
    expect(errors.filter((e) => !transient(e))).toEqual([]);
  }, 90_000);

  it('shows the gun idle from its Available notification when it went Charging -> Available without Finishing', async () => {
    // The pile reports Available (no Finishing) before its StopTransaction; the stop comes later.
    await bus.publish(status(1, 'Available', 100));
    const idle = await eventually(async () => {
      const s = await readState();
      expect(s.guns[0].status).toBe('idle');
      return s;
    }, 30_000);
    expect(idle.guns[0]).toEqual(
      expect.objectContaining({
        status: 'idle',
        ocppStatus: 'Available',
        since: at(100),
        transactionId: null,
      }),
    );
    expect(idle.guns[0].powerW).toBeNull();
    // The stop changes nothing of that: the gun stays idle since the notification.
    await bus.publish(
      event(
        TransactionStopped,
        {
          chargePointId: cp,
          connectorId: 1,
          transactionId: 501,
          idTag: 'BUS0001',
          meterStartWh: 1_000_000,
          meterStopWh: 1_002_000,
          energyWh: 2_000,
          timestamp: at(101),
          reason: 'Local',
          stopKind: 'normal',
          quarantined: false,
        },
        at(101),
      ),
    );
    await eventually(async () => {
      const [{ status: st, since, transactionId }] = (await readState()).guns;
      expect({ st, since, transactionId }).toEqual({ st: 'idle', since: at(100), transactionId: null });
      expect(await redis.hget(keys.transaction(cp, 501), 'stoppedAt')).toBe(at(101));
    }, 30_000);
  });
});

describe('monitoring read model while the bus is unreachable', () => {
  it('starts without waiting for the bus, keeps subscribing in the background and stops at once', async () => {
    const prefix = `vdmon-down-${randomUUID().slice(0, 6)}`;
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const unreachable = new URL(env.redisUrl);
    unreachable.hostname = '127.0.0.1';
    unreachable.port = String((server.address() as net.AddressInfo).port);
    await new Promise((resolve) => server.close(resolve)); // nobody listens there now
    const bus = new RedisStreamsBus({ url: unreachable.toString(), prefix, trimIntervalMs: 0 });
    bus.ping().catch(() => undefined);
    const redis = new Redis(env.redisUrl);
    const retries: string[] = [];
    const projector = new MonitorProjector(
      bus,
      new ReadModelStore(redis, ReadModelKeys.forBusPrefix(prefix)),
      redis,
      async () => undefined,
      { epochCheckMs: 100, onError: (_error, context) => void retries.push(context) },
    );
    try {
      await projector.start(); // the api goes on serving meanwhile
      // The generation is claimed in Redis (which is up); the consumer of its group keeps trying.
      expect(projector.epoch).toEqual(expect.any(String));
      await eventually(
        () =>
          expect(retries.slice(0, 2)).toEqual([
            `monitoring read model: subscribing ${monitorGroup(projector.epoch!)} (attempt 1)`,
            `monitoring read model: subscribing ${monitorGroup(projector.epoch!)} (attempt 2)`,
          ]),
        20_000,
      );
      const stopping = Date.now();
      await projector.stop();
      expect(Date.now() - stopping).toBeLessThan(2_000);
    } finally {
      await projector.stop();
      await bus.close();
      await redis.del(ReadModelKeys.forBusPrefix(prefix).epoch);
      await redis.quit();
    }
  }, 40_000);
});

/** Consumer groups reading the monitoring topics, as the broker lists them. */
async function groupsOf(bus: EventBus, redis: Redis): Promise<string[]> {
  if (bus instanceof RedisStreamsBus) {
    const groups = await Promise.all(
      MONITOR_TOPICS.map(async (topic) => {
        const info = (await redis.xinfo('GROUPS', bus.streamKey(topic, 0))) as unknown[][];
        return info.map((fields) => String(fields[fields.indexOf('name') + 1]));
      }),
    );
    return [...new Set(groups.flat())];
  }
  const kafka = bus as KafkaBus;
  const admin = kafka.client.admin();
  await admin.connect();
  try {
    const { groups } = await admin.listGroups();
    const prefix = kafka.topicName('');
    return groups
      .map((g) => g.groupId)
      .filter((id) => id.startsWith(prefix))
      .map((id) => id.slice(prefix.length));
  } finally {
    await admin.disconnect();
  }
}
