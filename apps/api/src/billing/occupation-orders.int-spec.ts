/**
 * Occupation fee orders and reservations through the api: the api's own consumers build occupation
 * orders from gateway events on its bus; the lists answer within the caller's data scope, with precise
 * errors for bad filters. Reservations are read from the gateway's command journal (rows written here
 * exactly as the gateway's CommandRepository writes them) and the sessions that used them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  ConnectorStatusChanged,
  TransactionStarted,
  TransactionStopped,
  type EventEnvelope,
} from '@voltdepot/shared-events';
import { createEnvelope, EVENT_BUS, type EventBus } from '@voltdepot/server-messaging';
import {
  deleteRedisKeys,
  eventually,
  grantPermissions,
  insertDepot,
  insertRegion,
  testEnv,
} from '@voltdepot/server-testing';
import { ApiTestApp, bearer, DEMO_PASSWORD, errorOf, startApiTestApp } from '../fixtures/api-test-app';

const MINUTE = 60_000;
type Body = Record<string, unknown>;

let t: ApiTestApp;
let bus: EventBus;
let operator: { authorization: string };
let maintainer: { authorization: string };
let fleet: { authorization: string };
const depots: Record<'fz' | 'hf', { stationId: number; pileId: number; gunId: number; cp: string }> =
  {} as never;
let txSeq = 7000;
/** The api's consumers read only this run's events (other test runs may share the Redis). */
const busPrefix = `vdtocc${randomBytes(4).toString('hex')}`;

/** A station of the organisation `org` charging occupation fees, with one pile and its gun 1. */
async function depot(org: string, regionId: number) {
  const d = await insertDepot(t.db.dataSource, {
    organization: org,
    station: {
      name: `${org} depot`,
      region_id: regionId,
      fee_scope: org === 'FZ' ? 'external' : 'internal',
      occupation_fee_enabled: true,
    },
    pile: { name: `${org} pile` },
  });
  return { stationId: d.stationId, pileId: d.pileId, gunId: d.gunIds[0], cp: d.chargePointId };
}

/** A session on gun 1 stopped at `stoppedAt`, and its gun released `occupiedMinutes` later. */
function occupiedSession(cp: string, stoppedAt: number, occupiedMinutes: number, reservationId?: number) {
  const tx = ++txSeq;
  const events: EventEnvelope[] = [
    createEnvelope(TransactionStarted, cp, {
      chargePointId: cp,
      connectorId: 1,
      transactionId: tx,
      idTag: 'BUS-0001',
      meterStartWh: 2_000_000,
      timestamp: new Date(stoppedAt - 60 * MINUTE).toISOString(),
      idTagStatus: 'Accepted',
      ...(reservationId !== undefined ? { reservationId } : {}),
    }),
    createEnvelope(TransactionStopped, cp, {
      chargePointId: cp,
      connectorId: 1,
      transactionId: tx,
      idTag: 'BUS-0001',
      meterStartWh: 2_000_000,
      meterStopWh: 2_100_000,
      energyWh: 100_000,
      timestamp: new Date(stoppedAt).toISOString(),
      reason: 'Local',
      stopKind: 'normal',
      quarantined: false,
    }),
    createEnvelope(ConnectorStatusChanged, cp, {
      chargePointId: cp,
      connectorId: 1,
      status: 'Available',
      errorCode: 'NoError',
      timestamp: new Date(stoppedAt + occupiedMinutes * MINUTE).toISOString(),
    }),
  ];
  return { tx, events };
}

beforeAll(async () => {
  t = await startApiTestApp({ BUS_PREFIX: busPrefix }, [], { worker: true });
  bus = t.app.get(EVENT_BUS);
  const db = t.db.dataSource;
  const regionId = await insertRegion(db);
  depots.fz = await depot('FZ', regionId);
  depots.hf = await depot('HF', regionId);
  // The maintainer (Hefei depot) may read the lists too; the fleet manager may not.
  await grantPermissions(db, 'maintainer', ['occupation_order:view', 'reservation:view']);
  operator = bearer(await t.login('operator', DEMO_PASSWORD));
  maintainer = bearer(await t.login('maintainer', DEMO_PASSWORD));
  fleet = bearer(await t.login('fleet', DEMO_PASSWORD));
}, 120_000);

afterAll(async () => {
  await t?.close();
  // The bus streams of this run's own prefix.
  await deleteRedisKeys(testEnv().redisUrl, `${busPrefix}:`);
});

describe('occupation fee orders API', () => {
  const stoppedAt = Date.parse('2026-11-21T14:00:00Z'); // 22:00 in Shanghai
  let fzTx: number;
  let hfTx: number;

  beforeAll(async () => {
    const fz = occupiedSession(depots.fz.cp, stoppedAt, 95); // 65 min beyond free: 5 intervals
    const hf = occupiedSession(depots.hf.cp, stoppedAt + 30 * MINUTE, 47); // 17 beyond: 2 intervals
    fzTx = fz.tx;
    hfTx = hf.tx;
    await bus.publish([...fz.events, ...hf.events]);
    await eventually(async () => {
      const [{ n }] = await t.db.dataSource.query(`SELECT count(*)::int AS n FROM occupation_order`);
      expect(n).toBe(2);
      const [{ c }] = await t.db.dataSource.query(`SELECT count(*)::int AS c FROM charging_order`);
      expect(c).toBe(2);
    }, 30_000);
  });

  it('lists the orders of every station for a user who sees all organisations, with names and links', async () => {
    const page = (await t.http().get('/api/occupationOrder/page/1/size/10').set(operator).expect(200)).body;
    expect(page.total).toBe(2);
    expect(page.totalAmountFen).toBe(700);
    expect(page.list.map((o: Body) => o['transactionId'])).toEqual([hfTx, fzTx]); // newest occupation first
    const [charging] = await t.db.dataSource.query(
      `SELECT id, order_no FROM charging_order WHERE charge_point_id = $1`,
      [depots.fz.cp],
    );
    expect(page.list[1]).toEqual({
      id: expect.any(Number),
      orderNo: expect.stringMatching(/^OC20261121/),
      chargingOrderNo: charging.order_no,
      chargingOrderId: Number(charging.id),
      chargePointId: depots.fz.cp,
      connectorId: 1,
      transactionId: fzTx,
      stationId: depots.fz.stationId,
      stationName: 'FZ depot',
      pileId: depots.fz.pileId,
      pileName: 'FZ pile',
      gunId: depots.fz.gunId,
      gunName: 'Gun 1',
      idTag: 'BUS-0001',
      feeScope: 'external',
      occupiedFrom: new Date(stoppedAt).toISOString(),
      occupiedTo: new Date(stoppedAt + 95 * MINUTE).toISOString(),
      occupiedSeconds: 95 * 60,
      freeMinutes: 30,
      intervalMinutes: 15,
      unitPriceFen: 100,
      cappedAmountFen: 5000,
      billableIntervals: 5,
      amountFen: 500,
      payStatus: 0,
      createdAt: expect.any(String),
    });
    const one = await t.http().get(`/api/occupationOrder/${page.list[1].id}`).set(operator).expect(200);
    expect(one.body).toEqual(page.list[1]);
  });

  it.each([
    ['station', () => ({ stationId: String(depots.hf.stationId) }), () => [hfTx]],
    ['pile', () => ({ pileId: String(depots.fz.pileId) }), () => [fzTx]],
    ['gun', () => ({ gunId: String(depots.hf.gunId) }), () => [hfTx]],
    [
      'part of the charging order number',
      () => ({ orderNo: `${String(fzTx).padStart(10, '0')}` }),
      () => [fzTx],
    ],
    ['fee scope', () => ({ feeScope: 'internal' }), () => [hfTx]],
    ['pay status', () => ({ payStatus: '1' }), () => []],
    [
      'occupation start (business time, inclusive)',
      () => ({ start: '2026-11-21 22:10:00', end: '2026-11-21 22:30:00' }),
      () => [hfTx],
    ],
    ['blank filters (ignored)', () => ({ stationId: '', orderNo: ' ', start: '' }), () => [hfTx, fzTx]],
  ])('filters by %s', async (_name, query, expected) => {
    const page = (
      await t.http().get('/api/occupationOrder/page/1/size/10').query(query()).set(operator).expect(200)
    ).body;
    expect(page.list.map((o: Body) => o['transactionId'])).toEqual(expected());
    expect(page.total).toBe(expected().length);
  });

  it('shows a user only the orders of stations in their organisations', async () => {
    const page = (await t.http().get('/api/occupationOrder/page/1/size/10').set(maintainer).expect(200)).body;
    expect(page.list.map((o: Body) => o['chargePointId'])).toEqual([depots.hf.cp]);
    expect(page.totalAmountFen).toBe(200);
    const all = (await t.http().get('/api/occupationOrder/page/1/size/10').set(operator).expect(200)).body;
    const fzOrder = all.list.find((o: Body) => o['chargePointId'] === depots.fz.cp);
    const hidden = await t.http().get(`/api/occupationOrder/${fzOrder.id}`).set(maintainer).expect(404);
    expect(errorOf(hidden.body, 'OCCUPATION_ORDER_NOT_FOUND').message).toBe(
      `Occupation fee order ${fzOrder.id} not found`,
    );
  });

  it.each([
    ['/api/occupationOrder/page/0/size/10', 'page', 'page starts at 1'],
    ['/api/occupationOrder/page/1/size/501', 'size', 'size must be at most 500'],
    ['/api/occupationOrder/page/1/size/10?stationId=x', 'stationId', 'must be a positive whole number'],
    [
      '/api/occupationOrder/page/1/size/10?payStatus=2',
      'payStatus',
      'must be 0 (unpaid), 1 (paid) or 3 (abnormal)',
    ],
    ['/api/occupationOrder/page/1/size/10?feeScope=both', 'feeScope', 'must be internal or external'],
    [
      '/api/occupationOrder/page/1/size/10?start=yesterday',
      'start',
      'must be a date-time YYYY-MM-DD HH:mm:ss or an ISO-8601 instant with an offset',
    ],
    [
      '/api/occupationOrder/page/1/size/10?start=2026-11-22%2000:00:00&end=2026-11-21%2000:00:00',
      'end',
      'must not be before start',
    ],
    ['/api/occupationOrder/abc', 'id', 'id must be a positive whole number'],
    [
      '/api/reservation/page/1/size/10?status=done',
      'status',
      'must be one of successful, completed, timedOut, cancelled',
    ],
  ])('answers %s with 400 naming %s', async (url, field, message) => {
    const res = await t.http().get(url).set(operator).expect(400);
    const body = errorOf(res.body, 'VALIDATION_FAILED');
    expect(JSON.stringify(body.details)).toContain(field);
    expect(JSON.stringify(body.details)).toContain(message);
  });

  it('answers 404 for an order that does not exist, 403 without the permission and 401 without a token', async () => {
    const missing = await t.http().get('/api/occupationOrder/999999').set(operator).expect(404);
    expect(errorOf(missing.body, 'OCCUPATION_ORDER_NOT_FOUND').message).toBe(
      'Occupation fee order 999999 not found',
    );
    const denied = await t.http().get('/api/occupationOrder/page/1/size/10').set(fleet).expect(403);
    expect(errorOf(denied.body, 'FORBIDDEN').message).toBe('Missing permission: occupation_order:view');
    const reservations = await t.http().get('/api/reservation/page/1/size/10').set(fleet).expect(403);
    expect(errorOf(reservations.body, 'FORBIDDEN').message).toBe('Missing permission: reservation:view');
    await t.http().get('/api/occupationOrder/page/1/size/10').expect(401);
  });
});

describe('reservations API', () => {
  /** A journal row exactly as the gateway's CommandRepository writes it when the pile has answered. */
  async function journal(
    cp: string,
    action: 'ReserveNow' | 'CancelReservation',
    params: Body,
    answer: string,
    requestedAt: Date,
  ): Promise<string> {
    const id = randomUUID();
    await t.db.dataSource.query(
      `INSERT INTO pile_command (id, charge_point_id, action, params, status, response, replica_id, requested_at, completed_at)
       VALUES ($1, $2, $3, $4::jsonb, 'completed', $5::jsonb, 'gw-1', $6, $6::timestamptz + interval '1 second')`,
      [id, cp, action, JSON.stringify(params), JSON.stringify({ status: answer }), requestedAt.toISOString()],
    );
    return id;
  }
  const now = Date.now();
  const reserve = (cp: string, reservationId: number, reservedAt: number, expiresInMinutes: number) =>
    journal(
      cp,
      'ReserveNow',
      {
        connectorId: 1,
        expiryDate: new Date(reservedAt + expiresInMinutes * MINUTE).toISOString(),
        idTag: `CARD-${reservationId}`,
        reservationId,
      },
      'Accepted',
      new Date(reservedAt),
    );
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const { fz, hf } = depots;
    ids['waiting'] = await reserve(fz.cp, 1, now - 10 * MINUTE, 60);
    ids['expired'] = await reserve(fz.cp, 2, now - 120 * MINUTE, 30);
    ids['cancelled'] = await reserve(fz.cp, 3, now - 50 * MINUTE, 60);
    await journal(fz.cp, 'CancelReservation', { reservationId: 3 }, 'Accepted', new Date(now - 40 * MINUTE));
    ids['refusedCancel'] = await reserve(fz.cp, 4, now - 20 * MINUTE, 60);
    await journal(fz.cp, 'CancelReservation', { reservationId: 4 }, 'Rejected', new Date(now - 15 * MINUTE));
    await journal(
      fz.cp,
      'ReserveNow',
      { connectorId: 1, expiryDate: new Date(now + MINUTE).toISOString(), idTag: 'X', reservationId: 5 },
      'Occupied',
      new Date(now - 5 * MINUTE),
    );
    ids['used'] = await reserve(hf.cp, 6, now - 90 * MINUTE, 60);
    // The bus arrives and starts charging with its reservation 30 minutes later.
    const used = occupiedSession(hf.cp, now - 30 * MINUTE, 5, 6);
    await bus.publish(used.events);
    await eventually(async () => {
      const [{ n }] = await t.db.dataSource.query(
        `SELECT count(*)::int AS n FROM charging_order WHERE charge_point_id = $1 AND transaction_id = $2`,
        [hf.cp, used.tx],
      );
      expect(n).toBe(1);
    }, 30_000);
  });

  it('lists accepted reservations with what became of each, newest first', async () => {
    const page = (await t.http().get('/api/reservation/page/1/size/20').set(operator).expect(200)).body;
    expect(page.total).toBe(5); // the ReserveNow the pile answered Occupied never was a reservation
    expect(page.list.map((r: Body) => [r['reservationId'], r['status']])).toEqual([
      [1, 'successful'],
      [4, 'successful'], // its cancellation was rejected by the pile
      [3, 'cancelled'],
      [6, 'completed'],
      [2, 'timedOut'],
    ]);
    const used = page.list.find((r: Body) => r['reservationId'] === 6);
    expect(used).toMatchObject({
      id: ids['used'],
      chargePointId: depots.hf.cp,
      connectorId: 1,
      stationId: depots.hf.stationId,
      stationName: 'HF depot',
      pileId: depots.hf.pileId,
      gunId: depots.hf.gunId,
      gunName: 'Gun 1',
      idTag: 'CARD-6',
      reservedAt: new Date(now - 90 * MINUTE).toISOString(),
      expiryDate: new Date(now - 30 * MINUTE).toISOString(),
      endedAt: expect.any(String),
    });
    expect(used.transactionId).toBeGreaterThan(0);
    const hfOrders = await t.db.dataSource.query(
      `SELECT transaction_id, order_no FROM charging_order WHERE charge_point_id = $1 AND transaction_id = $2`,
      [depots.hf.cp, used.transactionId],
    );
    expect(used.chargingOrderNo).toBe(hfOrders[0].order_no);
    const cancelled = page.list.find((r: Body) => r['reservationId'] === 3);
    expect(cancelled.endedAt).toBe(new Date(now - 40 * MINUTE + 1000).toISOString());
  });

  it.each([
    ['status', { status: 'timedOut' }, [2]],
    ['card', { idTag: 'card-1' }, [1]],
    ['pile', () => ({ pileId: String(depots.hf.pileId) }), [6]],
  ])('filters by %s', async (_name, query, expected) => {
    const q = typeof query === 'function' ? query() : query;
    const page = (await t.http().get('/api/reservation/page/1/size/20').query(q).set(operator).expect(200))
      .body;
    expect(page.list.map((r: Body) => r['reservationId'])).toEqual(expected);
  });

  it('shows a user only the reservations of piles in their organisations', async () => {
    const page = (await t.http().get('/api/reservation/page/1/size/20').set(maintainer).expect(200)).body;
    expect(page.list.map((r: Body) => r['reservationId'])).toEqual([6]);
  });
});
