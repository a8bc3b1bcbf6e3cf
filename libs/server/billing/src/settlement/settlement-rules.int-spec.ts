import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import {
  MeterValuesReceived,
  TransactionStarted,
  TransactionStopped,
  type EventEnvelope,
  type TransactionStoppedV1,
} from '@voltdepot/shared-events';
import { createEnvelope } from '@voltdepot/server-messaging';
import {
  createTestDatabase,
  insertCard,
  insertManufacturer,
  insertPile,
  insertPricePlan,
  insertVehicle,
  type TestDatabase,
} from '@voltdepot/server-testing';
import type { AuthPrincipal } from '@voltdepot/server-core';
import type { AbnormalReasonCode } from '@voltdepot/shared-contracts';
import { ChargingOrderQueryRepository } from '../orders-query/charging-order-query.repository';
import { OrdersQueryService } from '../orders-query/orders-query.service';
import { DEFAULT_SETTLEMENT_OPTIONS, SettlementService } from './settlement.service';

/**
 * The settlement's plausibility rules and the vehicle and start mode it keeps on the order, against the
 * real database (the service is driven directly, one transaction per batch as the consumer does), and
 * the sweep that holds stops whose start never came, including its races with a late start.
 */
let db: TestDatabase;
let service: SettlementService;
let orgId: number;
let orgPath: string;
let makerId: number;
let txSeq = 5000;

const LOST_MINUTES = 10;

beforeAll(async () => {
  db = await createTestDatabase();
  service = new SettlementService(undefined, {
    ...DEFAULT_SETTLEMENT_OPTIONS,
    lostStopMinutes: LOST_MINUTES,
  });
  // One flat stage over the day: 1.00 yuan/kWh electricity, 0.20 service.
  await insertPricePlan(db.dataSource, { name: 'Flat', isDefault: true });
  const [org] = await db.dataSource.query(`SELECT id, path FROM sys_organization WHERE code = 'FZ'`);
  orgId = Number(org.id);
  orgPath = String(org.path);
  makerId = await insertManufacturer(db.dataSource);
});
afterAll(async () => {
  await db?.drop();
});

const short = () => randomUUID().replace(/-/g, '').slice(0, 8).toUpperCase();

/** A pile of no station, with its start mode (null: none recorded). */
const aPile = async (startMode: number | null = null): Promise<string> =>
  (await insertPile(db.dataSource, { organization_id: orgId, start_mode: startMode })).chargePointId;

/** A bus whose battery holds `capacityWh` (null: unknown). */
const aVehicle = (capacityWh: number | null = 300_000) =>
  insertVehicle(db.dataSource, {
    organization_id: orgId,
    manufacturer_id: makerId,
    battery_capacity_wh: capacityWh,
  });

/** A card (type 0 driver, 3 charging) bound to `vehicleId`, or to none. */
const aCard = (type: number, vehicleId: number | null = null): Promise<string> =>
  insertCard(db.dataSource, { organization_id: orgId, type, vehicle_id: vehicleId });

type Session = {
  cp: string;
  tx: number;
  start: EventEnvelope;
  meter: EventEnvelope;
  stop: EventEnvelope;
  stopPayload: TransactionStoppedV1;
};

/** A one-hour session of `energyWh` on `cp` with card `idTag`, SoC samples at its start and end. */
function aSession(cp: string, idTag: string, energyWh = 100_000, socs: [number, number] = [30, 90]): Session {
  const tx = ++txSeq;
  const at = Date.parse('2026-11-20T02:00:00Z');
  const meterStartWh = 1_000_000;
  const start = createEnvelope(TransactionStarted, cp, {
    chargePointId: cp,
    connectorId: 1,
    transactionId: tx,
    idTag,
    meterStartWh,
    timestamp: new Date(at).toISOString(),
    idTagStatus: 'Accepted',
  });
  const meter = createEnvelope(MeterValuesReceived, cp, {
    chargePointId: cp,
    connectorId: 1,
    transactionId: tx,
    flagged: false,
    samples: [
      { timestamp: new Date(at + 60_000).toISOString(), measurand: 'SoC', value: socs[0], unit: 'Percent' },
      {
        timestamp: new Date(at + 3_500_000).toISOString(),
        measurand: 'SoC',
        value: socs[1],
        unit: 'Percent',
      },
    ],
  });
  const stopPayload: TransactionStoppedV1 = {
    chargePointId: cp,
    connectorId: 1,
    transactionId: tx,
    idTag,
    meterStartWh,
    meterStopWh: meterStartWh + energyWh,
    energyWh,
    timestamp: new Date(at + 3_600_000).toISOString(),
    reason: 'EVDisconnected',
    stopKind: 'normal',
    quarantined: false,
  };
  return { cp, tx, start, meter, stop: createEnvelope(TransactionStopped, cp, stopPayload), stopPayload };
}

const settle = (events: EventEnvelope[], m?: EntityManager) =>
  m ? service.handleBatch(events, m) : db.dataSource.transaction((tm) => service.handleBatch(events, tm));
const sweep = () => db.dataSource.transaction((m) => service.sweepLostStops(m));
const orderOf = async (s: Pick<Session, 'cp' | 'tx'>) =>
  (
    await db.dataSource.query(
      'SELECT * FROM charging_order WHERE charge_point_id = $1 AND transaction_id = $2',
      [s.cp, s.tx],
    )
  )[0] as Record<string, unknown> | undefined;
const ordersOf = (cp: string) =>
  db.dataSource.query('SELECT * FROM charging_order WHERE charge_point_id = $1', [cp]);
const ageParkedStop = (s: Pick<Session, 'cp' | 'tx'>, minutes: number) =>
  db.dataSource.query(
    `UPDATE billing_pending_stop SET received_at = now() - make_interval(mins => $3)
      WHERE charge_point_id = $1 AND transaction_id = $2`,
    [s.cp, s.tx, minutes],
  );

const scopes = { scopeOf: async () => ({ pathPatterns: [`${orgPath}%`] }) };
const me = { userId: 1, username: 'admin' } as AuthPrincipal;

describe('the vehicle and start mode kept on the order', () => {
  it('stores the bus of the card at settlement; re-binding the card later changes no old order', async () => {
    const cp = await aPile(2);
    const busA = await aVehicle();
    const busB = await aVehicle();
    const card = await aCard(3, busA.id);
    const s = aSession(cp, card);
    await settle([s.start, s.meter, s.stop]);
    expect(await orderOf(s)).toMatchObject({
      vehicle_id: busA.id,
      vehicle_plate: busA.plate,
      vehicle_vin: busA.vin,
      start_mode: 2,
      pay_status: 0,
      abnormal_reasons: [],
    });

    await db.dataSource.query('UPDATE charging_card SET vehicle_id = $2 WHERE physical_number = $1', [
      card,
      busB.id,
    ]);
    const query = new OrdersQueryService(new ChargingOrderQueryRepository(db.dataSource), scopes);
    const wide = { start: new Date('2026-11-01T00:00:00Z'), end: new Date('2026-12-01T00:00:00Z') };
    const page = await query.page(me, { ...wide, card }, 1, 10);
    expect(page.list).toHaveLength(1);
    expect(page.list[0]).toMatchObject({
      vehicleId: busA.id,
      vehiclePlate: busA.plate,
      vehicleVin: busA.vin,
      startMode: 2,
    });
    expect((await query.page(me, { ...wide, vehicle: busA.plate }, 1, 10)).list.map((o) => o.id)).toEqual([
      page.list[0].id,
    ]);
    expect((await query.page(me, { ...wide, vehicle: busB.plate }, 1, 10)).total).toBe(0);
    expect(await query.detail(me, page.list[0].id)).toMatchObject({ vehiclePlate: busA.plate, startMode: 2 });

    // A new session with the same card now belongs to bus B.
    const later = aSession(cp, card);
    await settle([later.start, later.meter, later.stop]);
    expect(await orderOf(later)).toMatchObject({ vehicle_id: busB.id, vehicle_plate: busB.plate });
  });

  it('matches the bus by VIN, else plate, when the idTag is no bound card; a plain card matches none', async () => {
    const cp = await aPile();
    const bus = await aVehicle();
    const byVin = aSession(cp, bus.vin);
    const byPlate = aSession(cp, bus.plate);
    const plain = aSession(cp, await aCard(3));
    await settle([byVin, byPlate, plain].flatMap((s) => [s.start, s.meter, s.stop]));
    expect(await orderOf(byVin)).toMatchObject({ vehicle_id: bus.id, pay_status: 0, start_mode: 0 });
    expect(await orderOf(byPlate)).toMatchObject({ vehicle_id: bus.id, pay_status: 0 });
    // No bus, but a charging card need not have one: billed normally.
    expect(await orderOf(plain)).toMatchObject({ vehicle_id: null, pay_status: 0, abnormal_reasons: [] });
  });
});

describe('implausible sessions are held as abnormal orders, never billed', () => {
  const expectHeld = (order: Record<string, unknown> | undefined, reason: AbnormalReasonCode) => {
    expect(order).toMatchObject({ pay_status: 3, total_fen: '0', abnormal_reasons: [reason] });
  };

  it("holds energy beyond 120 % of the matched bus's battery capacity, and bills up to it", async () => {
    const cp = await aPile();
    const bus = await aVehicle(100_000);
    const card = await aCard(3, bus.id);
    const atLimit = aSession(cp, card, 120_000);
    const beyond = aSession(cp, card, 120_001);
    await settle([atLimit, beyond].flatMap((s) => [s.start, s.meter, s.stop]));
    expect(await orderOf(atLimit)).toMatchObject({ pay_status: 0, abnormal_reasons: [] });
    expectHeld(await orderOf(beyond), 'beyondCapacity');
  });

  it('keeps the global cap for sessions without a known battery capacity', async () => {
    const cp = await aPile();
    const noCapacity = await aCard(3, (await aVehicle(null)).id);
    const plain = await aCard(3);
    const ok = aSession(cp, plain, 1_000_000);
    const tooMuch = aSession(cp, plain, 1_000_001);
    const busWithoutCapacity = aSession(cp, noCapacity, 1_000_001);
    await settle([ok, tooMuch, busWithoutCapacity].flatMap((s) => [s.start, s.meter, s.stop]));
    expect(await orderOf(ok)).toMatchObject({ pay_status: 0 });
    expectHeld(await orderOf(tooMuch), 'beyondCapacity');
    expectHeld(await orderOf(busWithoutCapacity), 'beyondCapacity');
  });

  it('holds a session whose start SoC is above its end SoC', async () => {
    const cp = await aPile();
    const card = await aCard(3);
    const falling = aSession(cp, card, 50_000, [80, 40]);
    const flat = aSession(cp, card, 50_000, [60, 60]);
    await settle([falling, flat].flatMap((s) => [s.start, s.meter, s.stop]));
    expectHeld(await orderOf(falling), 'socFalling');
    expect(await orderOf(flat)).toMatchObject({ pay_status: 0, start_soc: 60, end_soc: 60 });
  });

  it('holds a driver card bound to no bus, and a VIN that no bus has, as vehicle match failures', async () => {
    const cp = await aPile();
    const bus = await aVehicle();
    const unboundCard = await aCard(0);
    const unboundDriver = aSession(cp, unboundCard);
    const boundDriver = aSession(cp, await aCard(0, bus.id));
    const unknownVin = aSession(cp, 'LZZ1234567890ABCD');
    await settle([unboundDriver, boundDriver, unknownVin].flatMap((s) => [s.start, s.meter, s.stop]));
    expectHeld(await orderOf(unboundDriver), 'noVehicle');
    expect(await orderOf(boundDriver)).toMatchObject({ pay_status: 0, vehicle_id: bus.id });
    expectHeld(await orderOf(unknownVin), 'noVehicle');
  });
});

describe('a stop whose start never comes becomes a lost record, exactly once', () => {
  it('is parked until its time, then held as a lost record; a late start changes nothing', async () => {
    const cp = await aPile();
    const s = aSession(cp, await aCard(3));
    await settle([s.stop]);
    expect(await ordersOf(cp)).toHaveLength(0);
    await ageParkedStop(s, LOST_MINUTES - 1);
    await sweep();
    expect(await ordersOf(cp)).toHaveLength(0); // not due yet

    await ageParkedStop(s, LOST_MINUTES);
    await sweep();
    const held = await orderOf(s);
    expect(held).toMatchObject({
      pay_status: 3,
      total_fen: '0',
      stopped_at: new Date(s.stopPayload.timestamp),
    });
    expect(held!['abnormal_reasons']).toEqual(['startMissing']);
    const [{ n }] = await db.dataSource.query(
      `SELECT count(*)::int AS n FROM outbox_event WHERE type = 'order.settled' AND key = $1`,
      [cp],
    );
    expect(n).toBe(1);
    expect(
      await db.dataSource.query('SELECT 1 FROM billing_pending_stop WHERE charge_point_id = $1', [cp]),
    ).toHaveLength(0);

    // The start arrives late, with its readings, and the stop is sent again: the held order stays as it was.
    await settle([s.start, s.meter, s.stop]);
    await settle([s.stop]);
    expect(await ordersOf(cp)).toEqual([held]);
    await sweep();
    expect(await ordersOf(cp)).toEqual([held]);
  });

  it('a late start racing the sweep waits for it and then finds the stop gone: one held order', async () => {
    const cp = await aPile();
    const s = aSession(cp, await aCard(3));
    await settle([s.stop]);
    await ageParkedStop(s, LOST_MINUTES + 1);
    const sweeping = db.dataSource.createQueryRunner();
    await sweeping.connect();
    await sweeping.startTransaction();
    try {
      expect(await service.sweepLostStops(sweeping.manager)).toBeGreaterThanOrEqual(1);
      let lateDone = false;
      const late = settle([s.start, s.meter]).then(() => (lateDone = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(lateDone).toBe(false); // blocked on the stop the sweep holds
      await sweeping.commitTransaction();
      await late;
    } finally {
      await sweeping.release();
    }
    const orders = await ordersOf(cp);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ pay_status: 3, started_at: null });
    expect(orders[0]['abnormal_reasons']).toEqual(['startMissing']);
  });

  it('a sweep racing a start being recorded skips its stop: the start settles it, normally, once', async () => {
    const cp = await aPile();
    const s = aSession(cp, await aCard(3));
    await settle([s.stop]);
    await ageParkedStop(s, LOST_MINUTES + 1);
    const starting = db.dataSource.createQueryRunner();
    await starting.connect();
    await starting.startTransaction();
    try {
      await settle([s.start], starting.manager); // takes the parked stop and settles it, not committed yet
      const swept = await sweep(); // SKIP LOCKED: neither waits nor takes it
      expect(await orderOf(s)).toBeUndefined();
      await starting.commitTransaction();
      expect(swept).toBe(0);
    } finally {
      await starting.release();
    }
    await sweep();
    const orders = await ordersOf(cp);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ pay_status: 0, abnormal_reasons: [], energy_wh: '100000' });
  });

  it('many stops, sweeps on two replicas and late starts all at once: exactly one order per session', async () => {
    const cp = await aPile();
    const card = await aCard(3);
    const sessions = Array.from({ length: 30 }, () => aSession(cp, card));
    for (const s of sessions) await settle([s.stop]);
    for (const s of sessions) await ageParkedStop(s, LOST_MINUTES + 1);
    await Promise.all([
      sweep(),
      sweep(),
      ...sessions.filter((_, i) => i % 2 === 0).map((s) => settle([s.start, s.meter])),
    ]);
    await sweep();
    const orders: Record<string, unknown>[] = await ordersOf(cp);
    expect(orders.map((o) => o['transaction_id']).sort()).toEqual(sessions.map((s) => s.tx).sort());
    const [{ n }] = await db.dataSource.query(
      `SELECT count(*)::int AS n FROM outbox_event WHERE type = 'order.settled' AND key = $1`,
      [cp],
    );
    expect(n).toBe(sessions.length);
    for (const o of orders) {
      const lost = (o['abnormal_reasons'] as string[]).includes('startMissing');
      // Either settled from its start (billed) or held as lost (no start on the order), never a mix.
      expect(lost ? o['started_at'] === null && o['pay_status'] === 3 : o['pay_status'] === 0).toBe(true);
    }
  });
});

describe('the occupation fee of the same session on the order', () => {
  it('shows the occupation order and its fee, and the total including it', async () => {
    const cp = await aPile();
    const s = aSession(cp, await aCard(3));
    await settle([s.start, s.meter, s.stop]);
    const order = (await orderOf(s))!;
    const [oc] = await db.dataSource.query(
      `INSERT INTO occupation_order (order_no, charge_point_id, connector_id, transaction_id, charging_order_no,
         organization_id, fee_scope, occupied_from, occupied_to, free_minutes, interval_minutes, unit_price_fen,
         capped_amount_fen, billable_intervals, amount_fen)
       VALUES ($1, $2, 1, $3, $4, $5, 'internal', '2026-11-20T03:00:00Z', '2026-11-20T04:00:00Z', 15, 15, 500, 0, 3, 1500)
       RETURNING id, order_no`,
      [`OC${short()}`, cp, s.tx, order['order_no'], orgId],
    );
    const query = new OrdersQueryService(new ChargingOrderQueryRepository(db.dataSource), scopes);
    const detail = await query.detail(me, Number(order['id']));
    expect(detail).toMatchObject({
      occupationOrderId: Number(oc.id),
      occupationOrderNo: oc.order_no,
      occupationFeeFen: 1500,
      totalWithOccupationFen: Number(order['total_fen']) + 1500,
    });
    const other = aSession(cp, await aCard(3));
    await settle([other.start, other.meter, other.stop]);
    const without = await query.detail(me, Number((await orderOf(other))!['id']));
    expect(without).toMatchObject({
      occupationOrderId: null,
      occupationFeeFen: null,
      totalWithOccupationFen: without.totalFen,
    });
  });
});
