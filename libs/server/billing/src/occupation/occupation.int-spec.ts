/**
 * Occupation fees end to end below the HTTP layer: the settlement and occupation consumers on a real bus
 * and real PostgreSQL, fed with the gateway's events (stops on the transactions topic, connector
 * statuses on the status topic), in order, out of order, redelivered and replayed.
 */
import { randomUUID } from 'node:crypto';
import {
  ConnectorStatusChanged,
  TransactionStarted,
  TransactionStopped,
  type EventEnvelope,
  type TransactionStoppedV1,
} from '@voltdepot/shared-events';
import { createEnvelope, KafkaBus, RedisStreamsBus, type EventBus } from '@voltdepot/server-messaging';
import {
  createTestDatabase,
  eventually,
  insertDepot,
  insertPile,
  insertPricePlan,
  insertRegion,
  insertStation,
  testEnv,
  type TestDatabase,
} from '@voltdepot/server-testing';
import { parseMinute } from '../pricing/price-plan';
import { orderNumber } from '../settlement/order-number';
import { settlementSubscription } from '../settlement/settlement.consumer';
import { occupationSubscription } from './occupation.consumer';
import { OccupationService } from './occupation.service';

const env = testEnv();
const drivers: [string, (prefix: string) => EventBus][] = [
  ['redis', (prefix) => new RedisStreamsBus({ url: env.redisUrl, prefix, blockMs: 100, trimIntervalMs: 0 })],
];
if (env.kafkaBrokers) {
  const brokers = env.kafkaBrokers;
  drivers.push([
    'kafka',
    (prefix) => new KafkaBus({ brokers, topicPrefix: `${prefix}.`, clientId: 'occupation-test' }),
  ]);
}

const MINUTE = 60_000;
/** Station fee settings of the test depot: 30 free minutes, then 1.00 yuan per started 15 minutes, at most 20.00. */
const FEES = { free: 30, interval: 15, unitFen: 100, capFen: 2000 };

describe.each(drivers)('occupation fees on the %s bus', (_driver, makeBus) => {
  let db: TestDatabase;
  let bus: EventBus;
  let txSeq = 5000;
  let stationId: number;
  let disabledStationId: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    await insertPricePlan(db.dataSource, {
      name: 'Flat',
      isDefault: true,
      stages: [
        {
          stageType: 'normal',
          startMinute: parseMinute('00:00'),
          endMinute: parseMinute('24:00'),
          electricityPrice: 6400,
          serviceFee: 6000,
        },
      ],
    });
    const regionId = await insertRegion(db.dataSource);
    const station = (enabled: boolean) =>
      insertStation(db.dataSource, {
        region_id: regionId,
        name: 'North Yard',
        fee_scope: 'external',
        free_parking_minutes: FEES.free,
        occupation_interval_minutes: FEES.interval,
        occupation_unit_price_fen: FEES.unitFen,
        capped_amount_fen: FEES.capFen,
        occupation_fee_enabled: enabled,
      });
    stationId = await station(true);
    disabledStationId = await station(false);
    bus = makeBus(`vdtest-occ-${randomUUID().slice(0, 8)}`);
    await bus.subscribe(settlementSubscription(db.dataSource));
    await bus.subscribe(occupationSubscription(db.dataSource));
  });
  afterAll(async () => {
    await bus?.close();
    await db?.drop();
  });

  /** A pile registered at a station (the fee settings come from there). */
  async function pileAt(station: number): Promise<string> {
    return (await insertPile(db.dataSource, { station_id: station, name: 'DC 240 kW' })).chargePointId;
  }

  type Session = {
    cp: string;
    tx: number;
    stoppedAt: number;
    events: EventEnvelope[];
    stop: TransactionStoppedV1;
  };

  /** A charging session on gun 1 ending at `stoppedAt` (start and stop events). */
  function session(cp: string, stoppedAt: number, reason = 'Local'): Session {
    const tx = ++txSeq;
    const startedAt = stoppedAt - 90 * MINUTE;
    const stop: TransactionStoppedV1 = {
      chargePointId: cp,
      connectorId: 1,
      transactionId: tx,
      idTag: 'BUS-0001',
      meterStartWh: 1_000_000,
      meterStopWh: 1_150_000,
      energyWh: 150_000,
      timestamp: new Date(stoppedAt).toISOString(),
      reason,
      stopKind: 'normal',
      quarantined: false,
    };
    return {
      cp,
      tx,
      stoppedAt,
      stop,
      events: [
        createEnvelope(TransactionStarted, cp, {
          chargePointId: cp,
          connectorId: 1,
          transactionId: tx,
          idTag: 'BUS-0001',
          meterStartWh: 1_000_000,
          timestamp: new Date(startedAt).toISOString(),
          idTagStatus: 'Accepted',
        }),
        createEnvelope(TransactionStopped, cp, stop),
      ],
    };
  }

  const status = (cp: string, s: string, at: number, connectorId = 1) =>
    createEnvelope(ConnectorStatusChanged, cp, {
      chargePointId: cp,
      connectorId,
      status: s,
      errorCode: 'NoError',
      timestamp: new Date(at).toISOString(),
    });

  const ordersOf = (cp: string) =>
    db.dataSource.query(`SELECT * FROM occupation_order WHERE charge_point_id = $1 ORDER BY transaction_id`, [
      cp,
    ]);
  const outcomeOf = async (cp: string, tx: number) =>
    (
      await db.dataSource.query(
        `SELECT outcome, released_at FROM occupation_stop WHERE charge_point_id = $1 AND transaction_id = $2`,
        [cp, tx],
      )
    )[0] as { outcome: string | null; released_at: Date | null } | undefined;
  const oneOrder = (cp: string) =>
    eventually(async () => {
      const rows = await ordersOf(cp);
      expect(rows).toHaveLength(1);
      return rows[0] as Record<string, unknown>;
    });

  it('charges every started interval beyond the free minutes, linked to the charging order', async () => {
    const cp = await pileAt(stationId);
    const s = session(cp, Date.parse('2026-11-21T13:00:00Z'));
    await bus.publish(s.events);
    await bus.publish([
      status(cp, 'Finishing', s.stoppedAt + 1000),
      status(cp, 'Available', s.stoppedAt + 95 * MINUTE),
    ]);
    const order = await oneOrder(cp);
    // 95 minutes occupied, 30 free: 65 minutes = 5 started intervals of 15 minutes.
    expect(order).toMatchObject({
      transaction_id: s.tx,
      connector_id: 1,
      station_id: stationId,
      fee_scope: 'external',
      free_minutes: FEES.free,
      interval_minutes: FEES.interval,
      unit_price_fen: FEES.unitFen,
      capped_amount_fen: FEES.capFen,
      billable_intervals: 5,
      amount_fen: '500',
      pay_status: 0,
    });
    expect(new Date(order['occupied_from'] as Date).getTime()).toBe(s.stoppedAt);
    expect(new Date(order['occupied_to'] as Date).getTime()).toBe(s.stoppedAt + 95 * MINUTE);
    expect(order['order_no']).toMatch(/^OC\d{8}[0-9A-F]{8}\d{10}$/);
    const [charging] = await eventually(async () => {
      const rows = await db.dataSource.query(
        `SELECT order_no FROM charging_order WHERE charge_point_id = $1 AND transaction_id = $2`,
        [cp, s.tx],
      );
      expect(rows).toHaveLength(1);
      return rows;
    });
    expect(order['charging_order_no']).toBe(charging.order_no);
    expect(order['charging_order_no']).toBe(orderNumber(cp, s.tx, new Date(s.stoppedAt), 'Asia/Shanghai'));
  });

  it('is the same single order when the release arrives before the stop, and replays change nothing', async () => {
    const cp = await pileAt(stationId);
    const s = session(cp, Date.parse('2026-11-21T14:00:00Z'));
    const statuses = [
      status(cp, 'Finishing', s.stoppedAt),
      status(cp, 'Faulted', s.stoppedAt + 40 * MINUTE), // a fault while parked: still occupied
      status(cp, 'Available', s.stoppedAt + 61 * MINUTE),
    ];
    await bus.publish(statuses); // the status topic runs ahead of the transactions topic
    await eventually(async () => {
      const [{ n }] = await db.dataSource.query(
        `SELECT count(*)::int AS n FROM occupation_release WHERE charge_point_id = $1`,
        [cp],
      );
      expect(n).toBe(1);
    });
    await bus.publish(s.events);
    const order = await oneOrder(cp);
    expect(order).toMatchObject({ billable_intervals: 3, amount_fen: '300' }); // 31 minutes beyond free

    // Everything again: the very same envelopes, copies with new ids, and a later status of the gun.
    await bus.publish([...statuses, ...s.events]);
    await bus.publish([...statuses, ...s.events].map((e) => ({ ...e, eventId: randomUUID() })));
    await bus.publish(status(cp, 'Available', s.stoppedAt + 500 * MINUTE));
    const probe = session(await pileAt(stationId), Date.parse('2026-11-21T14:00:00Z'));
    await bus.publish([...probe.events, status(probe.cp, 'Available', probe.stoppedAt + 46 * MINUTE)]);
    await oneOrder(probe.cp); // events published before the probe's have been handled by now
    expect(await ordersOf(cp)).toEqual([order]);
  });

  it('gives each session of a gun its own occupation, whichever topic runs ahead', async () => {
    const cp = await pileAt(stationId);
    const first = session(cp, Date.parse('2026-11-21T10:00:00Z'));
    const second = session(cp, Date.parse('2026-11-21T13:00:00Z'));
    // All statuses of the gun first: released 50 min after the first stop, busy again, released 20 h later.
    await bus.publish([
      status(cp, 'Finishing', first.stoppedAt),
      status(cp, 'Available', first.stoppedAt + 50 * MINUTE),
      status(cp, 'Preparing', second.stoppedAt - 91 * MINUTE),
      status(cp, 'Charging', second.stoppedAt - 90 * MINUTE),
      status(cp, 'Finishing', second.stoppedAt),
      status(cp, 'Available', second.stoppedAt + 20 * 60 * MINUTE),
    ]);
    await bus.publish([...second.events, ...first.events]); // and the second session's events before the first's
    const orders = await eventually(async () => {
      const rows = await ordersOf(cp);
      expect(rows).toHaveLength(2);
      return rows;
    });
    expect(orders.map((o: Record<string, unknown>) => [o['transaction_id'], o['amount_fen']])).toEqual([
      [first.tx, '200'], // 20 minutes beyond free: 2 intervals
      [second.tx, String(FEES.capFen)], // 19.5 hours beyond free: capped
    ]);
  });

  it('waits while the gun is still occupied, and creates nothing within the free minutes', async () => {
    const cp = await pileAt(stationId);
    const s = session(cp, Date.parse('2026-11-21T15:00:00Z'));
    await bus.publish([...s.events, status(cp, 'Finishing', s.stoppedAt + 1000)]);
    await eventually(async () =>
      expect(await outcomeOf(cp, s.tx)).toEqual({ outcome: null, released_at: null }),
    );
    await bus.publish(status(cp, 'Available', s.stoppedAt + 29 * MINUTE));
    await eventually(async () => expect((await outcomeOf(cp, s.tx))?.outcome).toBe('free'));
    expect(await ordersOf(cp)).toEqual([]);
  });

  it('ends at the Available of a gun that went Charging -> Available without Finishing', async () => {
    const cp = await pileAt(stationId);
    const s = session(cp, Date.parse('2026-11-21T18:00:00Z'));
    await bus.publish([
      status(cp, 'Charging', s.stoppedAt - 60 * MINUTE),
      ...s.events,
      status(cp, 'Available', s.stoppedAt + 47 * MINUTE),
    ]);
    const order = await oneOrder(cp);
    expect(order).toMatchObject({ billable_intervals: 2, amount_fen: '200' }); // 17 minutes beyond free
    expect(new Date(order['occupied_to'] as Date).getTime()).toBe(s.stoppedAt + 47 * MINUTE);
  });

  it.each([
    ["at the stop's instant", 0],
    ['200 ms before it (the StatusNotification sent before the StopTransaction)', -200],
  ])('frees the gun at the stop when it went Charging -> Available %s', async (_name, offsetMs) => {
    for (const statusesFirst of [true, false]) {
      const cp = await pileAt(stationId);
      const s = session(cp, Date.parse('2026-11-21T19:00:00Z'));
      const statuses = [
        status(cp, 'Charging', s.stoppedAt - 60 * MINUTE),
        status(cp, 'Available', s.stoppedAt + offsetMs),
        // The next session on the gun, much later: it does not make the bus stand there meanwhile.
        status(cp, 'Preparing', s.stoppedAt + 120 * MINUTE),
      ];
      await bus.publish(statusesFirst ? [...statuses, ...s.events] : [...s.events, ...statuses]);
      await eventually(async () =>
        expect(await outcomeOf(cp, s.tx)).toEqual({ outcome: 'free', released_at: new Date(s.stoppedAt) }),
      );
      expect(await ordersOf(cp)).toEqual([]);
    }
  });

  it.each([
    ['the vehicle was unplugged (the stop itself released the gun)', 'EVDisconnected', true, 'free'],
    ['the station does not charge occupation fees', 'Local', false, 'disabled'],
  ])('creates no order when %s', async (_name, reason, enabled, outcome) => {
    const cp = await pileAt(enabled ? stationId : disabledStationId);
    const s = session(cp, Date.parse('2026-11-21T16:00:00Z'), reason);
    await bus.publish([...s.events, status(cp, 'Available', s.stoppedAt + 300 * MINUTE)]);
    await eventually(async () => expect((await outcomeOf(cp, s.tx))?.outcome).toBe(outcome));
    expect(await ordersOf(cp)).toEqual([]);
  });

  it('does not price a pile that stands at no station', async () => {
    const cp = `CP-${randomUUID().slice(0, 8)}`;
    const s = session(cp, Date.parse('2026-11-21T17:00:00Z'));
    await bus.publish([...s.events, status(cp, 'Available', s.stoppedAt + 300 * MINUTE)]);
    await eventually(async () => expect((await outcomeOf(cp, s.tx))?.outcome).toBe('noStation'));
    expect(await ordersOf(cp)).toEqual([]);
  });
});

describe('occupation consumer transactions', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('serialises a stop and its release handled at the same moment, so neither misses the other', async () => {
    const service = new OccupationService();
    const { chargePointId: cp } = await insertDepot(db.dataSource, {
      station: { capped_amount_fen: 0, occupation_fee_enabled: true },
      guns: [],
    });
    const stoppedAt = Date.parse('2026-11-21T13:00:00Z');
    const stop = createEnvelope(TransactionStopped, cp, {
      chargePointId: cp,
      connectorId: 1,
      transactionId: 1,
      meterStopWh: 10,
      timestamp: new Date(stoppedAt).toISOString(),
      reason: 'Local',
      stopKind: 'normal',
      quarantined: false,
    });
    const release = createEnvelope(ConnectorStatusChanged, cp, {
      chargePointId: cp,
      connectorId: 1,
      status: 'Available',
      errorCode: 'NoError',
      timestamp: new Date(stoppedAt + 90 * MINUTE).toISOString(),
    });
    let stopWritten!: () => void;
    const written = new Promise<void>((resolve) => (stopWritten = resolve));
    // The stop's transaction stays open a while after writing; the release is handled meanwhile.
    const first = db.dataSource.transaction(async (m) => {
      await service.handleBatch([stop], m);
      stopWritten();
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    await written;
    const second = db.dataSource.transaction((m) => service.handleBatch([release], m));
    await Promise.all([first, second]);
    const [row] = await db.dataSource.query(
      `SELECT outcome, released_at FROM occupation_stop WHERE charge_point_id = $1`,
      [cp],
    );
    // Resolved (not left open) at the release's time: 60 minutes beyond the free 30 = 4 intervals.
    expect(row.outcome).toBe('charged');
    expect(new Date(row.released_at).getTime()).toBe(stoppedAt + 90 * MINUTE);
    const orders = await db.dataSource.query(
      `SELECT amount_fen FROM occupation_order WHERE charge_point_id = $1`,
      [cp],
    );
    expect(orders).toEqual([{ amount_fen: '400' }]);
  });
});
