import ExcelJS from 'exceljs';
import type { Response } from 'superagent';
import { randomBytes } from 'node:crypto';
import {
  parseMinute,
  priceSession,
  type PricePlan,
  type ChargingOrderDetail,
  type ChargingOrderPage,
  type ChargingOrderRow,
} from '@voltdepot/server-billing';
import { createEnvelope, EVENT_BUS, type EventBus } from '@voltdepot/server-messaging';
import {
  aCard,
  aManufacturer,
  type ApiDepot,
  AssetApi,
  aVehicle,
  deleteRedisKeys,
  eventually,
  grantPermissions,
  organizationId,
  testEnv,
  unique,
} from '@voltdepot/server-testing';
import {
  ConnectorStatusChanged,
  MeterValuesReceived,
  TransactionStarted,
  TransactionStopped,
  type EventEnvelope,
} from '@voltdepot/shared-events';
import {
  ADMIN_PASSWORD,
  ApiTestApp,
  bearer,
  DEMO_PASSWORD,
  errorOf,
  startApiTestApp,
} from '../fixtures/api-test-app';
import { binary } from '../fixtures/xlsx';

type Auth = { authorization: string };
type Body = Record<string, unknown>;

const STAGES = [
  {
    stageType: 'valley',
    startTime: '00:00',
    endTime: '08:00',
    electricityPrice: '0.3200',
    serviceFee: '0.4',
  },
  { stageType: 'peak', startTime: '08:00', endTime: '24:00', electricityPrice: '0.8523', serviceFee: '0.8' },
];
/** The same plan for the independent price check. */
const PLAN: PricePlan = {
  stages: [
    {
      stageType: 'valley',
      startMinute: 0,
      endMinute: parseMinute('08:00'),
      electricityPrice: 3200,
      serviceFee: 4000,
    },
    { stageType: 'peak', startMinute: 480, endMinute: 1440, electricityPrice: 8523, serviceFee: 8000 },
  ],
};

const BUS_PREFIX = `vdtest-orders-${randomBytes(4).toString('hex')}`;
let t: ApiTestApp;
let admin: Auth;
let operator: Auth;
let maintainer: Auth;
let bus: EventBus;
const ids: Record<string, number> = {};
let assets: AssetApi;
let firstDepot: ApiDepot;
let chargePointId: string;
let otherChargePointId: string;
let card: { physicalNumber: string; selfNumber: string };
let vehicle: { vin: string; plate: string };
let txSeq = 7000;

type SessionSpec = {
  cp?: string;
  connectorId?: number;
  idTag?: string;
  /** Local (+08:00) start, e.g. '2026-11-20T07:00:00+08:00'. */
  start: string;
  minutes: number;
  /** Energy register at start and at each sample (every 30 min) and at the stop. */
  meter?: (i: number) => number;
  soc?: (i: number) => number;
  reason?: string;
};

/** The gateway's events for one session: start, a sample every 30 minutes (energy and SoC), stop. */
function sessionEvents(spec: SessionSpec): {
  cp: string;
  tx: number;
  events: EventEnvelope[];
  readings: { at: number; energyWh: number }[];
} {
  const cp = spec.cp ?? chargePointId;
  const tx = ++txSeq;
  const connectorId = spec.connectorId ?? 1;
  const idTag = spec.idTag ?? card.physicalNumber;
  const start = Date.parse(spec.start);
  const meter = spec.meter ?? ((i: number) => 2_000_000 + i * 20_000);
  const soc = spec.soc ?? ((i: number) => 30 + i * 10);
  const steps = Math.floor(spec.minutes / 30);
  const readings = Array.from({ length: steps + 1 }, (_, i) => ({
    at: i === steps ? start + spec.minutes * 60_000 : start + i * 30 * 60_000,
    energyWh: meter(i),
  }));
  const events: EventEnvelope[] = [
    createEnvelope(TransactionStarted, cp, {
      chargePointId: cp,
      connectorId,
      transactionId: tx,
      idTag,
      meterStartWh: readings[0].energyWh,
      timestamp: new Date(start).toISOString(),
      idTagStatus: 'Accepted',
    }),
    ...readings.slice(1, -1).map((r, i) =>
      createEnvelope(MeterValuesReceived, cp, {
        chargePointId: cp,
        connectorId,
        transactionId: tx,
        flagged: false,
        samples: [
          {
            timestamp: new Date(r.at).toISOString(),
            measurand: 'Energy.Active.Import.Register',
            value: r.energyWh,
            unit: 'Wh',
          },
          { timestamp: new Date(r.at).toISOString(), measurand: 'SoC', value: soc(i + 1), unit: 'Percent' },
        ],
      }),
    ),
  ];
  const last = readings[readings.length - 1];
  events.push(
    createEnvelope(TransactionStopped, cp, {
      chargePointId: cp,
      connectorId,
      transactionId: tx,
      idTag,
      meterStartWh: readings[0].energyWh,
      meterStopWh: last.energyWh,
      energyWh: last.energyWh - readings[0].energyWh,
      timestamp: new Date(last.at).toISOString(),
      reason: spec.reason ?? 'EVDisconnected',
      stopKind: 'normal',
      quarantined: false,
    }),
  );
  return { cp, tx, events, readings };
}

const sessions: Record<string, ReturnType<typeof sessionEvents>> = {};
const orderIds: Record<string, number> = {};

async function page(query: Record<string, string | number>, who: Auth = admin): Promise<ChargingOrderPage> {
  return (await t.http().get('/api/chargingOrder/page/1/size/50').query(query).set(who).expect(200))
    .body as ChargingOrderPage;
}
const orderNos = (p: ChargingOrderPage) => p.list.map((o) => o.transactionId).sort();
const WIDE = { start: '2026-10-01 00:00:00', end: '2026-12-31 23:59:59' };

beforeAll(async () => {
  t = await startApiTestApp({ BUS_PREFIX }, [], { worker: true });
  admin = bearer(await t.login('admin', ADMIN_PASSWORD));
  operator = bearer(await t.login('operator', DEMO_PASSWORD));
  maintainer = bearer(await t.login('maintainer', DEMO_PASSWORD));
  bus = t.app.get(EVENT_BUS);
  assets = new AssetApi(t.http, admin);

  ids['plan'] = (
    await t
      .http()
      .post('/api/pricePlan')
      .set(admin)
      .send({ name: 'Orders test tariff', isDefault: true, stages: STAGES })
      .expect(201)
  ).body.id;
  chargePointId = unique('CP-ORD-');
  otherChargePointId = unique('CP-OTH-');
  firstDepot = await assets.depot({
    station: { name: 'Orders Depot', occupationFeeEnabled: true },
    pile: { chargePointId, name: 'Pile Alpha' },
    guns: [
      { name: 'Gun A1', channelNumber: 1 },
      { name: 'Gun A2', channelNumber: 2 },
    ],
  });
  const other = await assets.depot({
    regionId: firstDepot.regionId,
    labelIds: firstDepot.labelIds,
    station: { name: 'Other Depot' },
    pile: { chargePointId: otherChargePointId, name: 'Pile Beta' },
    guns: [],
  });
  ids['station'] = firstDepot.station.id;
  ids['pile'] = firstDepot.pile.id;
  ids['gun2'] = firstDepot.guns[1].id;
  ids['otherStation'] = other.station.id;
  ids['otherPile'] = other.pile.id;
  const maker = await assets.create('manufacturer', aManufacturer('car'));
  const v = await assets.create('vehicle', aVehicle(maker.id));
  vehicle = { vin: String(v['vin']), plate: String(v['plate']) };
  // A charging card: a driver card (type 0) bound to no bus would be held as a vehicle match failure.
  const c = await assets.create('card', aCard({ type: 3 }));
  card = { physicalNumber: String(c['physicalNumber']), selfNumber: String(c['selfNumber']) };

  sessions['normal'] = sessionEvents({ start: '2026-11-20T07:00:00+08:00', minutes: 120 });
  sessions['byVin'] = sessionEvents({
    start: '2026-11-20T20:00:00+08:00',
    minutes: 60,
    connectorId: 2,
    idTag: vehicle.vin,
  });
  sessions['other'] = sessionEvents({
    cp: otherChargePointId,
    start: '2026-11-21T01:00:00+08:00',
    minutes: 60,
  });
  sessions['old'] = sessionEvents({ start: '2026-11-01T10:00:00+08:00', minutes: 60 });
  // Held at settlement: a SoC sample out of range (billable on approval) ...
  sessions['badSoc'] = sessionEvents({
    start: '2026-11-21T07:30:00+08:00',
    minutes: 90,
    soc: (i) => (i === 2 ? 120 : 50),
  });
  // ... a register that runs backwards (never billable) ...
  sessions['decreasing'] = sessionEvents({
    start: '2026-11-21T10:00:00+08:00',
    minutes: 90,
    meter: (i) => (i === 2 ? 1_990_000 : 2_000_000 + i * 10_000),
  });
  // ... and one an operator rejects.
  sessions['toReject'] = sessionEvents({
    start: '2026-11-21T12:00:00+08:00',
    minutes: 60,
    soc: () => 130,
  });
  for (const s of Object.values(sessions)) await bus.publish(s.events);
  await eventually(async () => {
    const rows = await t.db.dataSource.query('SELECT id, transaction_id FROM charging_order');
    expect(rows).toHaveLength(Object.keys(sessions).length);
    for (const [name, s] of Object.entries(sessions))
      orderIds[name] = Number(rows.find((r: { transaction_id: number }) => r.transaction_id === s.tx).id);
  }, 30_000);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await deleteRedisKeys(testEnv().redisUrl, BUS_PREFIX);
});

describe('order query', () => {
  it('lists orders in a stop-time range with names of station, pile, gun, card and vehicle, and totals', async () => {
    const p = await page(WIDE);
    expect(p.total).toBe(7);
    expect(p.list).toHaveLength(7);
    const normal = p.list.find((o) => o.transactionId === sessions['normal'].tx) as ChargingOrderRow;
    expect(normal).toMatchObject({
      stationName: 'Orders Depot',
      pileName: 'Pile Alpha',
      gunName: 'Gun A1',
      idTag: card.physicalNumber,
      cardSelfNumber: card.selfNumber,
      vehiclePlate: null,
      startedAt: '2026-11-19T23:00:00.000Z',
      stoppedAt: '2026-11-20T01:00:00.000Z',
      durationSeconds: 7200,
      energyWh: 80_000,
      startSoc: 40,
      endSoc: 60,
      payStatus: 0,
      orderStatus: 'unpaid',
      reviewStatus: null,
      abnormalReasons: [],
    });
    const expected = priceSession(PLAN, sessions['normal'].readings);
    expect(normal.totalFen).toBe(expected.totalFen);
    const byVin = p.list.find((o) => o.transactionId === sessions['byVin'].tx) as ChargingOrderRow;
    expect(byVin).toMatchObject({ gunName: 'Gun A2', vehiclePlate: vehicle.plate, vehicleVin: vehicle.vin });
    // Totals sum every matching order.
    expect(p.totals).toEqual({
      count: 7,
      energyWh: p.list.reduce((sum, o) => sum + o.energyWh, 0),
      electricityFen: p.list.reduce((sum, o) => sum + o.electricityFen, 0),
      serviceFen: p.list.reduce((sum, o) => sum + o.serviceFen, 0),
      totalFen: p.list.reduce((sum, o) => sum + o.totalFen, 0),
      discountFen: 0,
    });
    // Newest first.
    const stops = p.list.map((o) => Date.parse(o.stoppedAt));
    expect([...stops].sort((a, b) => b - a)).toEqual(stops);
  });

  it('pages with totals over all matching orders, not just the page', async () => {
    const first = (await t.http().get('/api/chargingOrder/page/1/size/2').query(WIDE).set(admin).expect(200))
      .body as ChargingOrderPage;
    expect(first.list).toHaveLength(2);
    expect(first.total).toBe(7);
    expect(first.totals.count).toBe(7);
  });

  it.each([
    [
      'a day (business time zone)',
      () => ({ start: '2026-11-20 00:00:00', end: '2026-11-20 23:59:59' }),
      ['normal', 'byVin'],
    ],
    [
      'an ISO range',
      () => ({ start: '2026-11-01T00:00:00+08:00', end: '2026-11-01T23:59:59+08:00' }),
      ['old'],
    ],
    ['a station', () => ({ ...WIDE, stationId: ids['otherStation'] }), ['other']],
    ['a pile', () => ({ ...WIDE, pileId: ids['otherPile'] }), ['other']],
    ['a gun', () => ({ ...WIDE, gunId: ids['gun2'] }), ['byVin']],
    ['a vehicle by part of its plate', () => ({ ...WIDE, vehicle: vehicle.plate.slice(2) }), ['byVin']],
    [
      'a card by self number',
      () => ({ ...WIDE, card: card.selfNumber }),
      ['normal', 'other', 'old', 'badSoc', 'decreasing', 'toReject'],
    ],
    ['pay status abnormal', () => ({ ...WIDE, payStatus: 3 }), ['badSoc', 'decreasing', 'toReject']],
    ['held orders', () => ({ ...WIDE, held: 'true' }), ['badSoc', 'decreasing', 'toReject']],
    ['order status unpaid', () => ({ ...WIDE, orderStatus: 'unpaid' }), ['normal', 'byVin', 'other', 'old']],
  ])('filters by %s', async (_case, query, names) => {
    const p = await page(query());
    expect(orderNos(p)).toEqual(names.map((n) => sessions[n].tx).sort());
    expect(p.totals.count).toBe(names.length);
  });

  it('treats LIKE wildcards in text filters literally', async () => {
    expect((await page({ ...WIDE, card: '%' })).total).toBe(0);
    expect((await page({ ...WIDE, vehicle: '_' })).total).toBe(0);
  });

  it.each([
    ['start', { start: 'yesterday' }, /start: must be a date-time/],
    ['start', { start: '2026-13-01 00:00:00' }, /start: must be a date-time/],
    ['end', { start: '2026-11-02 00:00:00', end: '2026-11-01 00:00:00' }, /end: must not be before start/],
    ['payStatus', { payStatus: '2' }, /payStatus: must be 0 \(unpaid\), 1 \(paid\) or 3 \(abnormal\)/],
    [
      'orderStatus',
      { orderStatus: 'lost' },
      /orderStatus: must be one of unpaid, paid, refund, abnormal, unsettled/,
    ],
    ['stationId', { stationId: 'abc' }, /stationId: must be a positive whole number/],
    ['held', { held: 'yes' }, /held: must be true or false/],
    ['reviewStatus', { reviewStatus: 'done' }, /reviewStatus: must be pending, audited or rejected/],
    ['vehicle', { vehicle: 'x'.repeat(33) }, /vehicle: must be at most 32 characters/],
  ])('answers 400 naming %s for bad filters', async (_field, query, message) => {
    const res = await t.http().get('/api/chargingOrder/page/1/size/10').query(query).set(admin).expect(400);
    expect(JSON.stringify(errorOf(res.body, 'VALIDATION_FAILED'))).toMatch(message);
  });

  it('refuses a page size above 500 and a page below 1', async () => {
    await t.http().get('/api/chargingOrder/page/1/size/501').set(admin).expect(400);
    await t.http().get('/api/chargingOrder/page/0/size/10').set(admin).expect(400);
  });

  it('gives the stations, piles and guns for the filters', async () => {
    const options = (await t.http().get('/api/chargingOrder/options').set(operator).expect(200)).body;
    expect(options.stations).toEqual(
      expect.arrayContaining([
        { id: ids['station'], name: 'Orders Depot' },
        { id: ids['otherStation'], name: 'Other Depot' },
      ]),
    );
    expect(options.piles).toContainEqual({
      id: ids['pile'],
      name: 'Pile Alpha',
      stationId: ids['station'],
      chargePointId,
    });
    expect(options.guns).toContainEqual({ id: ids['gun2'], name: 'Gun A2', pileId: ids['pile'], channel: 2 });
  });

  it('is denied to maintenance staff (no order permission)', async () => {
    const res = await t.http().get('/api/chargingOrder/page/1/size/10').set(maintainer).expect(403);
    expect(errorOf(res.body, 'FORBIDDEN').message).toBe('Missing permission: charging_order:view');
    await t.http().get('/api/chargingOrder/options').set(maintainer).expect(403);
    await t.http().get(`/api/chargingOrder/${orderIds['normal']}`).set(maintainer).expect(403);
    await t.http().get('/api/chargingOrder/export/xlsx').set(maintainer).expect(403);
    await t.http().get('/api/chargingOrder/page/1/size/10').expect(401);
  });
});

describe('order detail', () => {
  it('has the band split, the meter series for the charts and the log', async () => {
    const d = (await t.http().get(`/api/chargingOrder/${orderIds['normal']}`).set(operator).expect(200))
      .body as ChargingOrderDetail;
    const expected = priceSession(PLAN, sessions['normal'].readings);
    expect(d).toMatchObject({
      meterStartWh: 2_000_000,
      meterStopWh: 2_080_000,
      pricePlanName: 'Orders test tariff',
      discountPlanId: null,
      review: null,
    });
    expect(d.bands.find((b) => b.stageType === 'valley')).toEqual({
      stageType: 'valley',
      energyWh: expected.bands.valley.energyWh,
      electricityFen: expected.bands.valley.electricityFen,
      serviceFen: expected.bands.valley.serviceFen,
      totalFen: expected.bands.valley.electricityFen + expected.bands.valley.serviceFen,
    });
    expect(d.bands.reduce((sum, b) => sum + b.energyWh, 0)).toBe(80_000);
    expect(d.bands.reduce((sum, b) => sum + b.totalFen, 0)).toBe(d.totalFen);
    // 07:00-09:00 with samples at 07:30, 08:00, 08:30: energy since the start, 20 kWh per half hour = 40 kW.
    expect(d.energySeries.map((p) => p.energyWh)).toEqual([0, 20_000, 40_000, 60_000, 80_000]);
    expect(d.energySeries[0].at).toBe('2026-11-19T23:00:00.000Z');
    expect(d.powerSeries).toEqual([
      { at: '2026-11-19T23:30:00.000Z', powerW: 40_000 },
      { at: '2026-11-20T00:00:00.000Z', powerW: 40_000 },
      { at: '2026-11-20T00:30:00.000Z', powerW: 40_000 },
      { at: '2026-11-20T01:00:00.000Z', powerW: 40_000 },
    ]);
    expect(d.socSeries.map((p) => p.soc)).toEqual([40, 50, 60]);
    expect(d.log.map((e) => e.action)).toEqual(['started', 'stopped', 'settled']);
    expect(d.log[0]).toMatchObject({ detail: card.physicalNumber, at: '2026-11-19T23:00:00.000Z' });
    expect(d.log[1]).toMatchObject({ detail: 'EVDisconnected' });
    expect(d.log[2]).toMatchObject({ amountFen: d.totalFen });
  });

  it('answers 404 for an unknown order and 400 for a bad id', async () => {
    const res = await t.http().get('/api/chargingOrder/987654321').set(admin).expect(404);
    expect(errorOf(res.body, 'CHARGING_ORDER_NOT_FOUND').message).toBe(
      'Charging order 987654321 does not exist',
    );
    await t.http().get('/api/chargingOrder/abc').set(admin).expect(400);
  });
});

describe('review of held orders', () => {
  const review = (name: string, body: Body, who: Auth = operator) =>
    t.http().post(`/api/chargingOrder/${orderIds[name]}/review`).set(who).send(body);

  it('approving bills the order from its readings, once', async () => {
    const before = (await t.http().get(`/api/chargingOrder/${orderIds['badSoc']}`).set(admin).expect(200))
      .body as ChargingOrderDetail;
    expect(before).toMatchObject({
      payStatus: 3,
      orderStatus: 'abnormal',
      reviewStatus: 'pending',
      totalFen: 0,
    });
    expect(before.abnormalReasons).toEqual(['socOutOfRange']);

    // The plan is repriced after the order was held: approving still bills the tariff of the session.
    const repriced = STAGES.map((stage) => ({ ...stage, electricityPrice: '2.0000', serviceFee: '1.5' }));
    const setStages = (stages: typeof STAGES) =>
      t
        .http()
        .put(`/api/pricePlan/${ids['plan']}`)
        .set(admin)
        .send({ name: 'Orders test tariff', isDefault: true, stages })
        .expect(200);
    await setStages(repriced);
    let res: Response;
    try {
      res = await review('badSoc', {
        decision: 'approve',
        reason: '  SoC sensor glitch, energy verified  ',
      }).expect(200);
    } finally {
      await setStages(STAGES);
    }
    const after = res.body as ChargingOrderDetail;
    const expected = priceSession(PLAN, sessions['badSoc'].readings);
    expect(after).toMatchObject({
      payStatus: 0,
      orderStatus: 'unpaid',
      reviewStatus: 'audited',
      totalFen: expected.totalFen,
      electricityFen: expected.electricityFen,
      serviceFen: expected.serviceFen,
      review: { decision: 'approve', reason: 'SoC sensor glitch, energy verified', reviewer: 'operator' },
    });
    expect(after.bands.find((b) => b.stageType === 'peak')?.energyWh).toBe(expected.bands.peak.energyWh);
    expect(after.log.map((e) => e.action)).toEqual(['started', 'stopped', 'held', 'approved']);
    expect(after.log[3]).toMatchObject({ by: 'operator', amountFen: expected.totalFen });

    const again = await review('badSoc', { decision: 'reject', reason: 'changed my mind' }).expect(409);
    expect(errorOf(again.body, 'CHARGING_ORDER_ALREADY_REVIEWED').message).toMatch(
      /already approved by operator/,
    );
    expect((await page({ ...WIDE, reviewStatus: 'audited' })).list.map((o) => o.transactionId)).toEqual([
      sessions['badSoc'].tx,
    ]);
  });

  it('refuses to bill an order whose register runs backwards, and records nothing', async () => {
    const res = await review('decreasing', { decision: 'approve', reason: 'looks fine' }).expect(422);
    const error = errorOf(res.body, 'CHARGING_ORDER_NOT_BILLABLE');
    expect(error.message).toMatch(/cannot be billed: the meter register decreases during the session/);
    expect(error.details).toEqual({ problems: ['the meter register decreases during the session'] });
    const d = (await t.http().get(`/api/chargingOrder/${orderIds['decreasing']}`).set(admin).expect(200))
      .body as ChargingOrderDetail;
    expect(d).toMatchObject({ payStatus: 3, reviewStatus: 'pending', review: null, totalFen: 0 });
  });

  it('rejecting leaves the order unbilled, with the reason and reviewer in its log', async () => {
    const res = await review(
      'toReject',
      { decision: 'reject', reason: 'Test session on the bench' },
      admin,
    ).expect(200);
    expect(res.body).toMatchObject({
      payStatus: 3,
      orderStatus: 'unsettled',
      reviewStatus: 'rejected',
      totalFen: 0,
      review: { decision: 'reject', reason: 'Test session on the bench', reviewer: 'admin' },
    });
    const log = (res.body as ChargingOrderDetail).log;
    expect(log[log.length - 1]).toMatchObject({
      action: 'rejected',
      by: 'admin',
      detail: 'Test session on the bench',
    });
    expect((await page({ ...WIDE, orderStatus: 'unsettled' })).list.map((o) => o.transactionId)).toEqual([
      sessions['toReject'].tx,
    ]);
  });

  it.each([
    ['no reason', { decision: 'reject' }, 400, 'VALIDATION_FAILED', /reason: Please enter the reason/],
    [
      'a blank reason',
      { decision: 'reject', reason: '   ' },
      400,
      'VALIDATION_FAILED',
      /reason: Please enter the reason/,
    ],
    [
      'a long reason',
      { decision: 'reject', reason: 'x'.repeat(201) },
      400,
      'VALIDATION_FAILED',
      /reason: must be at most 200/,
    ],
    [
      'an unknown decision',
      { decision: 'maybe', reason: 'x' },
      400,
      'VALIDATION_FAILED',
      /decision: must be approve or reject/,
    ],
  ])('answers %s with a 400 naming the field', async (_case, body, status, code, message) => {
    const res = await review('decreasing', body).expect(status);
    expect(JSON.stringify(errorOf(res.body, code))).toMatch(message);
  });

  it('refuses to review an order that was not held, an unknown order, and callers without the permission', async () => {
    const notHeld = await review('normal', { decision: 'approve', reason: 'x' }).expect(409);
    expect(errorOf(notHeld.body, 'CHARGING_ORDER_NOT_HELD').message).toMatch(/was not held for review/);
    const unknown = await t
      .http()
      .post('/api/chargingOrder/987654321/review')
      .set(admin)
      .send({ decision: 'reject', reason: 'x' })
      .expect(404);
    errorOf(unknown.body, 'CHARGING_ORDER_NOT_FOUND');
    const denied = await review('decreasing', { decision: 'reject', reason: 'x' }, maintainer).expect(403);
    expect(errorOf(denied.body, 'FORBIDDEN').message).toBe('Missing permission: charging_order:review');
  });

  it('lets exactly one of two simultaneous reviews through', async () => {
    const extra = sessionEvents({ start: '2026-11-22T09:00:00+08:00', minutes: 60, soc: () => 101 });
    await bus.publish(extra.events);
    const id = await eventually(async () => {
      const [row] = await t.db.dataSource.query('SELECT id FROM charging_order WHERE transaction_id = $1', [
        extra.tx,
      ]);
      expect(row).toBeDefined();
      return Number(row.id);
    });
    const results = await Promise.all(
      ['approve', 'reject'].map((decision) =>
        t.http().post(`/api/chargingOrder/${id}/review`).set(admin).send({ decision, reason: 'race' }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const reviews = await t.db.dataSource.query(
      'SELECT decision FROM charging_order_review WHERE order_id = $1',
      [id],
    );
    expect(reviews).toHaveLength(1);
  });
});

async function readXlsx(buffer: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

/** supertest: collect a binary answer into a Buffer. */

describe('xlsx exports', () => {
  it('exports the filtered order list with Chinese headers, yuan and kWh', async () => {
    const res = await t
      .http()
      .get('/api/chargingOrder/export/xlsx')
      .query({ ...WIDE, stationId: ids['station'], payStatus: 0, lang: 'zh-CN' })
      .set(admin)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('充电订单.xlsx')}`,
    );
    const rows = await readXlsx(res.body as Buffer);
    expect(rows[0].slice(0, 3)).toEqual(['订单号', '充电站', '充电桩']);
    const expected = await page({ ...WIDE, stationId: ids['station'], payStatus: 0 });
    expect(rows).toHaveLength(expected.total + 1);
    const normal = expected.list.find((o) => o.transactionId === sessions['normal'].tx) as ChargingOrderRow;
    const row = rows.find((r) => r[0] === normal.orderNo) as unknown[];
    const header = rows[0] as string[];
    const cell = (name: string) => row[header.indexOf(name)];
    expect(cell('开始时间')).toBe('2026-11-20 07:00:00');
    expect(cell('电量(kW·h)')).toBe(80);
    expect(cell('总费用(元)')).toBe(normal.totalFen / 100);
    expect(cell('支付状态')).toBe('未支付');
  });

  it('exports the abnormal orders in English', async () => {
    const res = await t
      .http()
      .get('/api/chargingOrder/export/xlsx')
      .query({ ...WIDE, held: 'true', lang: 'en-US' })
      .set(operator)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(res.headers['content-disposition']).toContain('filename="abnormal-orders.xlsx"');
    const rows = await readXlsx(res.body as Buffer);
    expect(rows[0][0]).toBe('Order number');
    const header = rows[0] as string[];
    const reviewColumn = header.indexOf('Review status');
    const expected = await page({ ...WIDE, held: 'true' });
    const labels = { pending: 'Pending', audited: 'Audited', rejected: 'Rejected' };
    expect(rows.slice(1).map((r) => r[0])).toEqual(expected.list.map((o) => o.orderNo));
    expect(rows.slice(1).map((r) => r[reviewColumn])).toEqual(
      expected.list.map((o) => labels[o.reviewStatus as keyof typeof labels]),
    );
  });

  it('exports the price plans (a row per stage) and the discount plans', async () => {
    const prices = await t
      .http()
      .get('/api/pricePlan/export/xlsx')
      .query({ lang: 'en-US' })
      .set(admin)
      .buffer(true)
      .parse(binary)
      .expect(200);
    const priceRows = await readXlsx(prices.body as Buffer);
    expect(priceRows[0].slice(0, 6)).toEqual([
      'Plan name',
      'Default plan',
      'Stage type',
      'Start time',
      'End time',
      'Electricity price (yuan/kW·h)',
    ]);
    expect(priceRows).toContainEqual(
      expect.arrayContaining(['Orders test tariff', 'Yes', 'Peak', '08:00', '24:00', 0.8523, 0.8]),
    );

    await t
      .http()
      .post('/api/discountPlan')
      .set(admin)
      .send({
        name: '=Fleet discount',
        customerType: 2,
        priceDiscount: 95,
        serviceFeeDiscount: 80,
        validFrom: '2026-01-01T00:00:00+08:00',
        validTo: '2027-01-01T00:00:00+08:00',
        details: [{ idTag: 'CARD-A' }, { idTag: 'CARD-B' }],
      })
      .expect(201);
    const discounts = await t
      .http()
      .get('/api/discountPlan/export/xlsx')
      .set(admin)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(discounts.headers['content-disposition']).toContain(encodeURIComponent('优惠方案.xlsx'));
    const discountRows = await readXlsx(discounts.body as Buffer);
    expect(discountRows[0][0]).toBe('方案名称');
    // Formula-like text stays text.
    expect(discountRows[1]).toEqual([
      "'=Fleet discount",
      '集团',
      95,
      80,
      '2026-01-01 00:00:00',
      '2027-01-01 00:00:00',
      '是',
      'CARD-A, CARD-B',
      expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    ]);
  });

  it('exports the occupation fee orders with the list filters, as the list shows them', async () => {
    // Stopped at the pile (not unplugged), the gun put back 95 minutes later: an occupation fee.
    const s = sessionEvents({ start: '2026-09-15T08:00:00+08:00', minutes: 60, reason: 'Local' });
    const stoppedAt = Date.parse('2026-09-15T09:00:00+08:00');
    await bus.publish([
      ...s.events,
      createEnvelope(ConnectorStatusChanged, s.cp, {
        chargePointId: s.cp,
        connectorId: 1,
        status: 'Available',
        errorCode: 'NoError',
        timestamp: new Date(stoppedAt + 95 * 60_000).toISOString(),
      }),
    ]);
    const range = { start: '2026-09-15 00:00:00', end: '2026-09-15 23:59:59' };
    const listed = await eventually(async () => {
      const res = await t
        .http()
        .get('/api/occupationOrder/page/1/size/10')
        .query(range)
        .set(admin)
        .expect(200);
      expect(res.body.list).toHaveLength(1);
      return res.body.list[0] as { orderNo: string; amountFen: number; chargingOrderNo: string };
    }, 30_000);
    expect(listed.amountFen).toBeGreaterThan(0);
    const res = await t
      .http()
      .get('/api/occupationOrder/export/xlsx')
      .query({ ...range, lang: 'en-US' })
      .set(operator)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(res.headers['content-disposition']).toContain('filename="occupation-fee-orders.xlsx"');
    const rows = await readXlsx(res.body as Buffer);
    expect(rows).toHaveLength(2);
    const header = rows[0] as string[];
    expect(header.slice(0, 2)).toEqual(['Occupation order number', 'Charging order number']);
    expect(rows[1][0]).toBe(listed.orderNo);
    expect(rows[1][1]).toBe(listed.chargingOrderNo);
    expect(rows[1][header.indexOf('Occupation fee (yuan)')]).toBe(listed.amountFen / 100);
    expect(rows[1][header.indexOf('Occupied from')]).toBe('2026-09-15 09:00:00');

    // Outside the range: only the header.
    const empty = await t
      .http()
      .get('/api/occupationOrder/export/xlsx')
      .query({ start: '2026-09-16 00:00:00', lang: 'zh-CN' })
      .set(admin)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(empty.headers['content-disposition']).toContain(encodeURIComponent('占位费订单.xlsx'));
    expect(await readXlsx(empty.body as Buffer)).toHaveLength(1);
  });

  it('exports the reservations with Chinese headers', async () => {
    const res = await t
      .http()
      .get('/api/reservation/export/xlsx')
      .set(admin)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(res.headers['content-disposition']).toContain(encodeURIComponent('预约记录.xlsx'));
    const rows = await readXlsx(res.body as Buffer);
    expect(rows[0].slice(0, 3)).toEqual(['预约号', '充电站', '充电桩']);
  });

  it('refuses bad export filters and callers without the export permission', async () => {
    const bad = await t
      .http()
      .get('/api/occupationOrder/export/xlsx')
      .query({ start: 'soon', lang: 'fr' })
      .set(admin)
      .expect(400);
    const message = JSON.stringify(errorOf(bad.body, 'VALIDATION_FAILED'));
    expect(message).toMatch(/start: must be a date-time/);
    expect(message).toMatch(/lang: must be zh-CN or en-US/);
    const denied = await t.http().get('/api/occupationOrder/export/xlsx').set(maintainer).expect(403);
    expect(errorOf(denied.body, 'FORBIDDEN').message).toBe('Missing permission: occupation_order:export');
    await t.http().get('/api/reservation/export/xlsx').set(maintainer).expect(403);
  });

  it('denies the plan exports without the export permission', async () => {
    const res = await t.http().get('/api/pricePlan/export/xlsx').set(maintainer).expect(403);
    expect(errorOf(res.body, 'FORBIDDEN').message).toBe('Missing permission: price_plan:export');
    await t.http().get('/api/discountPlan/export/xlsx').set(maintainer).expect(403);
  });
});

describe('data scope', () => {
  it('shows a user only the orders of stations in their organisations', async () => {
    // Maintenance staff see the Hefei depot (HF) only; let their role read orders for this test.
    await grantPermissions(t.db.dataSource, 'maintainer', ['charging_order:view', 'charging_order:review']);
    const { chargePointId: cp, station } = await assets.depot({
      regionId: firstDepot.regionId,
      labelIds: firstDepot.labelIds,
      station: { name: 'Hefei Yard', organizationId: await organizationId(t.db.dataSource, 'HF') },
      guns: [],
    });
    const hfSession = sessionEvents({ cp, start: '2026-11-23T07:00:00+08:00', minutes: 60, soc: () => 150 });
    await bus.publish(hfSession.events);
    const id = await eventually(async () => {
      const [row] = await t.db.dataSource.query('SELECT id FROM charging_order WHERE transaction_id = $1', [
        hfSession.tx,
      ]);
      expect(row).toBeDefined();
      return Number(row.id);
    });

    const seen = await page(WIDE, maintainer);
    expect(seen.list.map((o) => o.transactionId)).toEqual([hfSession.tx]);
    expect(seen.totals.count).toBe(1);
    expect((await page(WIDE, admin)).total).toBeGreaterThan(1);
    const options = (await t.http().get('/api/chargingOrder/options').set(maintainer).expect(200)).body;
    expect(options.stations).toEqual([{ id: station.id, name: 'Hefei Yard' }]);

    // Another organisation's order reads as missing, for the detail and the review alike.
    const foreign = orderIds['decreasing'];
    const hidden = await t.http().get(`/api/chargingOrder/${foreign}`).set(maintainer).expect(404);
    errorOf(hidden.body, 'CHARGING_ORDER_NOT_FOUND');
    await t
      .http()
      .post(`/api/chargingOrder/${foreign}/review`)
      .set(maintainer)
      .send({ decision: 'reject', reason: 'not mine' })
      .expect(404);
    await t
      .http()
      .post(`/api/chargingOrder/${id}/review`)
      .set(maintainer)
      .send({ decision: 'reject', reason: 'Test bench session' })
      .expect(200);
  });
});

describe('amendment of orders', () => {
  /** A billed session of its own (the other tests' orders stay as they are). */
  async function billedOrder(
    start: string,
  ): Promise<{ id: number; session: ReturnType<typeof sessionEvents> }> {
    const session = sessionEvents({ start, minutes: 60 });
    await bus.publish(session.events);
    const id = await eventually(async () => {
      const [row] = await t.db.dataSource.query('SELECT id FROM charging_order WHERE transaction_id = $1', [
        session.tx,
      ]);
      expect(row).toBeDefined();
      return Number(row.id);
    });
    return { id, session };
  }
  const amend = (id: number, body: Body, who: Auth = operator) =>
    t.http().post(`/api/chargingOrder/${id}/amend`).set(who).send(body);
  const amendedEvents = async (id: number) =>
    t.db.dataSource.query(
      `SELECT e.payload FROM outbox_event e JOIN charging_order o ON o.order_no = e.payload->>'orderNo'
        WHERE e.type = 'order.amended' AND o.id = $1 ORDER BY e.id`,
      [id],
    );

  it('previews, then amends the meter stop once: a new version by whom and why, re-priced, announced', async () => {
    const { id, session } = await billedOrder('2026-11-24T07:00:00+08:00');
    const before = (await t.http().get(`/api/chargingOrder/${id}`).set(operator).expect(200))
      .body as ChargingOrderDetail;
    // The later stop of the pile said 1,500 Wh more.
    const meterStopWh = before.meterStopWh + 1_500;
    const readings = session.readings.map((r, i, all) =>
      i === all.length - 1 ? { ...r, energyWh: meterStopWh } : r,
    );
    const expected = priceSession(PLAN, readings);

    const preview = await t
      .http()
      .get(`/api/chargingOrder/${id}/amend/preview`)
      .query({ meterStopWh })
      .set(operator)
      .expect(200);
    expect(preview.body).toEqual({
      version: 2,
      current: expect.objectContaining({
        meterStopWh: before.meterStopWh,
        totalFen: before.totalFen,
        payStatus: 0,
      }),
      amended: expect.objectContaining({
        meterStopWh,
        energyWh: before.energyWh + 1_500,
        totalFen: expected.totalFen,
      }),
      difference: expect.objectContaining({ energyWh: 1_500, totalFen: expected.totalFen - before.totalFen }),
    });
    expect((await amendedEvents(id)).length).toBe(0); // a preview saves nothing

    const body = {
      meterStopWh,
      reason: '  the pile stopped again at a higher meter  ',
      requestId: 'amend-test-0001',
    };
    const res = await amend(id, body).expect(200);
    const after = res.body as ChargingOrderDetail;
    expect(after).toMatchObject({
      version: 2,
      meterStopWh,
      energyWh: before.energyWh + 1_500,
      totalFen: expected.totalFen,
      payStatus: 0,
    });
    expect(after.versions.map((v) => [v.version, v.kind, v.by, v.reason, v.totalDeltaFen])).toEqual([
      [1, 'settled', null, null, 0],
      [
        2,
        'amended',
        'operator',
        'the pile stopped again at a higher meter',
        expected.totalFen - before.totalFen,
      ],
    ]);
    expect(after.log.at(-1)).toMatchObject({
      action: 'amended',
      by: 'operator',
      amountFen: expected.totalFen,
    });

    // Retried (a lost answer): the same version, nothing new.
    const retried = await amend(id, body).expect(200);
    expect(retried.body).toMatchObject({ version: 2, totalFen: expected.totalFen });
    const events = await amendedEvents(id);
    expect(events).toEqual([
      {
        payload: expect.objectContaining({
          version: 2,
          kind: 'amended',
          amendedBy: 'operator',
          difference: expect.objectContaining({
            energyWh: 1_500,
            totalFen: expected.totalFen - before.totalFen,
          }),
        }),
      },
    ]);
    // The same key for another change is refused.
    const reused = await amend(id, { ...body, meterStopWh: meterStopWh + 1 }).expect(409);
    errorOf(reused.body, 'CHARGING_ORDER_REQUEST_REUSED');

    // The operation log lists it.
    const ops = await t
      .http()
      .get('/api/orderOperation/page/1/size/50')
      .query({ orderNo: before.orderNo, start: '2020-01-01 00:00:00', end: '2099-12-31 23:59:59' })
      .set(operator)
      .expect(200);
    expect(ops.body.list).toEqual([
      expect.objectContaining({ action: 'amended', operator: 'operator', amountFen: expected.totalFen }),
    ]);
  });

  it.each<[string, Body, RegExp]>([
    ['no reason', { meterStopWh: 1, requestId: 'amend-test-bad1' }, /reason: Please enter the reason/],
    [
      'neither meter stop nor energy',
      { reason: 'x', requestId: 'amend-test-bad2' },
      /meterStopWh: give either/,
    ],
    [
      'both',
      { meterStopWh: 1, energyWh: 1, reason: 'x', requestId: 'amend-test-bad3' },
      /meterStopWh: give either/,
    ],
    [
      'a fraction of a Wh',
      { meterStopWh: 1.5, reason: 'x', requestId: 'amend-test-bad4' },
      /meterStopWh: meterStopWh must be a whole number/,
    ],
    [
      'a negative energy',
      { energyWh: -1, reason: 'x', requestId: 'amend-test-bad5' },
      /energyWh: must not be negative/,
    ],
    ['no request id', { meterStopWh: 1, reason: 'x' }, /requestId: Please give the request id/],
    ['a short request id', { meterStopWh: 1, reason: 'x', requestId: 'abc' }, /requestId: must be 8-100/],
  ])('answers %s with a 400 naming the field', async (_case, body, message) => {
    const res = await amend(orderIds['normal'], body).expect(400);
    expect(JSON.stringify(errorOf(res.body, 'VALIDATION_FAILED'))).toMatch(message);
  });

  it('refuses a meter stop below the start (422), an unknown order (404) and callers without the permission (403)', async () => {
    const body = { meterStopWh: 1, reason: 'x', requestId: 'amend-test-low1' };
    const low = await amend(orderIds['normal'], body).expect(422);
    expect(errorOf(low.body, 'CHARGING_ORDER_NOT_AMENDABLE').message).toMatch(/below the meter start/);
    errorOf((await amend(987654321, body).expect(404)).body, 'CHARGING_ORDER_NOT_FOUND');
    const denied = await amend(orderIds['normal'], body, maintainer).expect(403);
    expect(errorOf(denied.body, 'FORBIDDEN').message).toBe('Missing permission: charging_order:amend');
    await t
      .http()
      .get(`/api/chargingOrder/${orderIds['normal']}/amend/preview`)
      .query({ meterStopWh: 'x' })
      .set(operator)
      .expect(400);
    await t
      .http()
      .get(`/api/chargingOrder/${orderIds['normal']}/amend/preview`)
      .query({ meterStopWh: 1 })
      .set(maintainer)
      .expect(403);
  });

  it('refuses to reject a billed order flagged for review: it is amended instead', async () => {
    const { id } = await billedOrder('2026-11-24T10:00:00+08:00');
    await t.db.dataSource.query(
      `UPDATE charging_order SET abnormal_reasons = '{repeatedStop}' WHERE id = $1`,
      [id],
    );
    const res = await t
      .http()
      .post(`/api/chargingOrder/${id}/review`)
      .set(operator)
      .send({ decision: 'reject', reason: 'x' })
      .expect(409);
    errorOf(res.body, 'CHARGING_ORDER_BILLED');
    const confirmed = await t
      .http()
      .post(`/api/chargingOrder/${id}/review`)
      .set(operator)
      .send({ decision: 'approve', reason: 'first stop is right' })
      .expect(200);
    expect(confirmed.body).toMatchObject({ payStatus: 0, reviewStatus: 'audited', version: 1 });
  });
});
