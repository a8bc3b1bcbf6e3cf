import { randomUUID } from 'node:crypto';
import {
  MeterValuesReceived,
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
  insertPricePlan,
  testEnv,
  type TestDatabase,
} from '@voltdepot/server-testing';
import { parseMinute } from '../pricing/price-plan';
import { applyDiscount } from '../pricing/discount';
import { priceSession } from '../pricing/session-pricing';
import { startSettlementConsumer } from './settlement.consumer';

const env = testEnv();
const drivers: [string, (prefix: string) => EventBus][] = [
  ['redis', (prefix) => new RedisStreamsBus({ url: env.redisUrl, prefix, blockMs: 100, trimIntervalMs: 0 })],
];
if (env.kafkaBrokers) {
  const brokers = env.kafkaBrokers;
  drivers.push([
    'kafka',
    (prefix) => new KafkaBus({ brokers, topicPrefix: `${prefix}.`, clientId: 'settlement-test' }),
  ]);
}

const STAGES = [
  ['deepValley', '00:00', '06:00', 2100, 4000],
  ['valley', '06:00', '08:00', 3200, 4000],
  ['normal', '08:00', '10:00', 6400, 6000],
  ['peak', '10:00', '17:00', 8523, 8000],
  ['sharp', '17:00', '19:00', 11800, 8000],
  ['normal', '19:00', '23:00', 6400, 6000],
  ['valley', '23:00', '24:00', 3200, 4000],
] as const;
const plan = {
  stages: STAGES.map(([stageType, from, to, electricityPrice, serviceFee]) => ({
    stageType,
    startMinute: parseMinute(from),
    endMinute: parseMinute(to),
    electricityPrice,
    serviceFee,
  })),
};

describe.each(drivers)('settlement on the %s bus', (_driver, makeBus) => {
  let db: TestDatabase;
  let bus: EventBus;
  let txSeq = 1000;

  beforeAll(async () => {
    db = await createTestDatabase();
    await insertPricePlan(db.dataSource, { name: 'Depot tariff', isDefault: true, stages: plan.stages });
    bus = makeBus(`vdtest-settle-${randomUUID().slice(0, 8)}`);
    await startSettlementConsumer(bus, db.dataSource);
  });
  afterAll(async () => {
    await bus.close();
    await db.drop();
  });

  type Session = {
    cp: string;
    tx: number;
    events: EventEnvelope[];
    stop: TransactionStoppedV1;
    readings: { at: number; energyWh: number }[];
  };

  /** An overnight bus session: 22:00 -> 05:30 local with a meter sample every 30 minutes. */
  function overnightSession(overrides: Partial<TransactionStoppedV1> = {}, socs = [35, 96]): Session {
    const cp = `CP-${randomUUID().slice(0, 6)}`;
    const tx = ++txSeq;
    const start = Date.parse('2026-11-20T14:00:00Z');
    const readings = Array.from({ length: 16 }, (_, i) => ({
      at: start + i * 30 * 60_000,
      energyWh: 5_000_000 + i * 17_321,
    }));
    const started = createEnvelope(TransactionStarted, cp, {
      chargePointId: cp,
      connectorId: 1,
      transactionId: tx,
      idTag: 'CARD0001',
      meterStartWh: readings[0].energyWh,
      timestamp: new Date(start).toISOString(),
      idTagStatus: 'Accepted',
    });
    const meterEvents = readings.slice(1, -1).map((r, i) =>
      createEnvelope(MeterValuesReceived, cp, {
        chargePointId: cp,
        connectorId: 1,
        transactionId: tx,
        flagged: false,
        samples: [
          {
            timestamp: new Date(r.at).toISOString(),
            measurand: 'Energy.Active.Import.Register',
            value: r.energyWh,
            unit: 'Wh',
          },
          {
            timestamp: new Date(r.at).toISOString(),
            measurand: 'SoC',
            value: i === 0 ? socs[0] : socs[1],
            unit: 'Percent',
          },
        ],
      }),
    );
    const last = readings[readings.length - 1];
    const stop: TransactionStoppedV1 = {
      chargePointId: cp,
      connectorId: 1,
      transactionId: tx,
      idTag: 'CARD0001',
      meterStartWh: readings[0].energyWh,
      meterStopWh: last.energyWh,
      energyWh: last.energyWh - readings[0].energyWh,
      timestamp: new Date(last.at).toISOString(),
      reason: 'EVDisconnected',
      stopKind: 'normal',
      quarantined: false,
      ...overrides,
    };
    return {
      cp,
      tx,
      events: [started, ...meterEvents, createEnvelope(TransactionStopped, cp, stop)],
      stop,
      readings,
    };
  }

  const ordersOf = (cp: string) =>
    db.dataSource.query('SELECT * FROM charging_order WHERE charge_point_id = $1', [cp]);

  it('settles a session into one order with fees split by band, exactly as the pricing engine says', async () => {
    const s = overnightSession();
    await bus.publish(s.events);
    const [order] = await eventually(async () => {
      const rows = await ordersOf(s.cp);
      expect(rows).toHaveLength(1);
      return rows;
    });
    const expected = priceSession(plan, s.readings);
    expect(order).toMatchObject({
      transaction_id: s.tx,
      pay_status: 0,
      energy_wh: String(s.stop.meterStopWh - (s.stop.meterStartWh ?? 0)),
      total_fen: String(expected.totalFen),
      normal_energy_wh: String(expected.bands.normal.energyWh),
      valley_energy_wh: String(expected.bands.valley.energyWh),
      deep_valley_energy_wh: String(expected.bands.deepValley.energyWh),
      deep_valley_electricity_fen: String(expected.bands.deepValley.electricityFen),
      start_soc: 35,
      end_soc: 96,
      end_reason: 'EVDisconnected',
      stop_kind: 'normal',
      abnormal_reasons: [],
    });
    expect(
      expected.bands.deepValley.energyWh + expected.bands.valley.energyWh + expected.bands.normal.energyWh,
    ).toBe(s.stop.meterStopWh - (s.stop.meterStartWh ?? 0));
    const settled = await db.dataSource.query(
      `SELECT payload FROM outbox_event WHERE type = 'order.settled' AND key = $1`,
      [s.cp],
    );
    expect(settled).toHaveLength(1);
    expect(settled[0].payload).toMatchObject({
      orderNo: order.order_no,
      totalFen: expected.totalFen,
      payStatus: 0,
    });
  });

  it('creates no second order and changes nothing when events are replayed or the stop is resent', async () => {
    const s = overnightSession();
    await bus.publish(s.events);
    const [before] = await eventually(async () => {
      const rows = await ordersOf(s.cp);
      expect(rows).toHaveLength(1);
      return rows;
    });
    await bus.publish(s.events); // redelivery of the very same events
    await bus.publish(
      createEnvelope(TransactionStopped, s.cp, { ...s.stop, meterStopWh: s.stop.meterStopWh + 999 }),
    ); // a new copy
    const probe = overnightSession();
    await bus.publish(probe.events); // once this one is settled, the replays before it have been handled
    await eventually(async () => expect(await ordersOf(probe.cp)).toHaveLength(1));
    const after = await ordersOf(s.cp);
    expect(after).toEqual([before]);
  });

  it('settles a stop that arrives before its start once the start shows up', async () => {
    const s = overnightSession();
    const [started, ...rest] = s.events;
    await bus.publish(rest); // meter values and the stop first
    const probe = overnightSession();
    await bus.publish(probe.events);
    await eventually(async () => expect(await ordersOf(probe.cp)).toHaveLength(1));
    expect(await ordersOf(s.cp)).toHaveLength(0);
    await bus.publish(started);
    const [order] = await eventually(async () => {
      const rows = await ordersOf(s.cp);
      expect(rows).toHaveLength(1);
      return rows;
    });
    expect(order.total_fen).toBe(String(priceSession(plan, s.readings).totalFen));
  });

  it('applies the discount plan covering the card at the start, per band and component, rounded half up', async () => {
    const [{ id: planId }] = await db.dataSource.query(
      `INSERT INTO discount_plan (name, customer_type, price_discount, service_fee_discount, valid_from, valid_to)
       VALUES ($1, 2, 95, 80, '2026-11-01T00:00:00Z', '2026-12-01T00:00:00Z') RETURNING id`,
      [`Fleet ${randomUUID().slice(0, 6)}`],
    );
    await db.dataSource.query(`INSERT INTO discount_plan_card (plan_id, id_tag) VALUES ($1, 'CARD0001')`, [
      planId,
    ]);
    try {
      const s = overnightSession();
      await bus.publish(s.events);
      const [order] = await eventually(async () => {
        const rows = await ordersOf(s.cp);
        expect(rows).toHaveLength(1);
        return rows;
      });
      const list = priceSession(plan, s.readings);
      const discounted = applyDiscount(list, { planId, pricePercent: 95, servicePercent: 80 });
      expect(discounted.totalFen).toBeLessThan(list.totalFen);
      expect(order).toMatchObject({
        discount_plan_id: planId,
        total_fen: String(discounted.totalFen),
        electricity_fen: String(discounted.electricityFen),
        service_fen: String(discounted.serviceFen),
        electricity_discount_fen: String(list.electricityFen - discounted.electricityFen),
        service_discount_fen: String(list.serviceFen - discounted.serviceFen),
        deep_valley_electricity_fen: String(discounted.bands.deepValley.electricityFen),
        valley_service_fen: String(discounted.bands.valley.serviceFen),
        normal_energy_wh: String(list.bands.normal.energyWh),
      });
    } finally {
      await db.dataSource.query(`UPDATE discount_plan SET enabled = false WHERE id = $1`, [planId]);
    }
  });

  it('settles many sessions of many piles delivered together, duplicates included, each exactly once', async () => {
    const sessions = Array.from({ length: 40 }, () => overnightSession());
    const events = sessions.flatMap((s) => s.events);
    // One publish: the consumer gets them in large batches, each copy of an event twice in a row.
    await bus.publish(events.flatMap((e) => [e, e]));
    const rows = await eventually(async () => {
      const found = await db.dataSource.query(
        `SELECT charge_point_id, transaction_id, total_fen, energy_wh FROM charging_order
          WHERE charge_point_id = ANY($1::text[])`,
        [sessions.map((s) => s.cp)],
      );
      expect(found).toHaveLength(sessions.length);
      return found as { charge_point_id: string; transaction_id: number; total_fen: string }[];
    });
    for (const s of sessions) {
      const order = rows.find((r) => r.charge_point_id === s.cp && r.transaction_id === s.tx);
      expect(order?.total_fen).toBe(String(priceSession(plan, s.readings).totalFen));
    }
    const [{ settled }] = await db.dataSource.query(
      `SELECT count(*)::int AS settled FROM outbox_event WHERE type = 'order.settled' AND key = ANY($1::text[])`,
      [sessions.map((s) => s.cp)],
    );
    expect(settled).toBe(sessions.length);
  });

  it("prices a session with the plan in force at its start at its pile's station, not the default", async () => {
    const flat = {
      stages: [
        {
          stageType: 'normal' as const,
          startMinute: 0,
          endMinute: 1440,
          electricityPrice: 10000,
          serviceFee: 2000,
        },
      ],
    };
    const stationPlan = await insertPricePlan(db.dataSource, flat);
    const s = overnightSession();
    const { stationId } = await insertDepot(db.dataSource, { pile: { charge_point_id: s.cp }, guns: [] });
    // In force from before the session; a later assignment (after its start) must not apply.
    await db.dataSource.query(
      `INSERT INTO station_price_plan (station_id, plan_id, effective_from) VALUES ($1, $2, '2026-01-01T00:00:00Z'),
              ($1, (SELECT id FROM price_plan WHERE is_default), '2026-11-20T20:00:00Z')`,
      [stationId, stationPlan],
    );
    await bus.publish(s.events);
    const [order] = await eventually(async () => {
      const rows = await ordersOf(s.cp);
      expect(rows).toHaveLength(1);
      return rows;
    });
    expect(order.price_plan_id).toBe(stationPlan);
    expect(order.total_fen).toBe(String(priceSession(flat, s.readings).totalFen));
    expect(order.total_fen).not.toBe(String(priceSession(plan, s.readings).totalFen));
  });

  it.each([
    ['a quarantined stop of an unknown transaction', { quarantined: true }, [35, 96], 'unknownTransaction'],
    ['a meter that went backwards', { meterStopWh: 4_000_000 }, [35, 96], 'meterDecreased'],
    ['more energy than any battery holds', { meterStopWh: 9_000_000 }, [35, 96], 'beyondCapacity'],
    ['an SoC above 100 %', {}, [35, 140], 'socOutOfRange'],
  ])('holds %s as an abnormal order for review, never billed', async (_name, overrides, socs, reason) => {
    const s = overnightSession(overrides, socs);
    const events = (overrides as Partial<TransactionStoppedV1>).quarantined
      ? [s.events[s.events.length - 1]]
      : s.events;
    await bus.publish(events);
    const [order] = await eventually(async () => {
      const rows = await ordersOf(s.cp);
      expect(rows).toHaveLength(1);
      return rows;
    });
    expect(order.pay_status).toBe(3);
    expect(order.total_fen).toBe('0');
    expect(order.abnormal_reasons).toEqual([reason]);
  });
});
