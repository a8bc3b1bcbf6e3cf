/**
 * A charging card names the bus it is issued to (`vehicleId`): the card grid, its sheet, the order query
 * and live monitoring all show that bus, whatever the card's cardholder text says.
 */
import ExcelJS from 'exceljs';
import { randomBytes } from 'node:crypto';
import { MonitoringAssetsRepository } from '@voltdepot/server-monitoring';
import { RedisStreamsBus } from '@voltdepot/server-messaging';
import {
  aCard,
  aManufacturer,
  AssetApi,
  aVehicle,
  deleteRedisKeys,
  eventually,
  organizationId,
  PileEvents,
  testEnv,
  unique,
} from '@voltdepot/server-testing';
import type { FieldError, MonitorStationView, MonitorVehiclePage } from '@voltdepot/shared-contracts';
import type { ChargingOrderDetail, ChargingOrderPage } from '@voltdepot/server-billing';
import {
  ADMIN_PASSWORD,
  ApiTestApp,
  bearer,
  DEMO_PASSWORD,
  errorOf,
  startApiTestApp,
} from '../fixtures/api-test-app';
import { download, sheetRows } from '../fixtures/xlsx';

type Body = Record<string, unknown>;
type Auth = { authorization: string };
type Row = Body & { id: number };

const PREFIX = `vdcardveh${randomBytes(4).toString('hex')}`;
let t: ApiTestApp;
let bus: RedisStreamsBus;
let admin: Auth;
let operator: Auth;
const ids: Record<string, number> = {};
let chargePointId: string;
/** Two buses of the admin's organisation and one the (narrowed) operator does not see. */
let busA: Row;
let busB: Row;
let hiddenBus: Row;

const create = (kind: string, body: Body, who: Auth = admin): Promise<Row> =>
  new AssetApi(t.http, who).create(kind, body);

const card = (id: number) => t.http().get(`/api/card/${id}`).set(admin).expect(200);
const cardPage = async (query: Record<string, string | number>): Promise<Row[]> =>
  (await t.http().get('/api/card/page/1/size/100').query(query).set(admin).expect(200)).body.list as Row[];

async function xlsx(rows: (string | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('import');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

beforeAll(async () => {
  t = await startApiTestApp({ BUS_PREFIX: PREFIX, OCPP_REDIS_PREFIX: PREFIX }, [], { worker: true });
  bus = new RedisStreamsBus({ url: testEnv().redisUrl, prefix: PREFIX, trimIntervalMs: 0 });
  // The operator role sees the FZ subtree only here, so the data scope has a vehicle to refuse.
  const fz = await organizationId(t.db.dataSource, 'FZ');
  const hf = await organizationId(t.db.dataSource, 'HF');
  await t.db.dataSource.query(
    `UPDATE sys_role_organization SET organization_id = $1 WHERE role_id = (SELECT id FROM sys_role WHERE code = 'operator')`,
    [fz],
  );
  admin = bearer(await t.login('admin', ADMIN_PASSWORD));
  operator = bearer(await t.login('operator', DEMO_PASSWORD));

  const maker = await create('manufacturer', aManufacturer('car'));
  busA = await create('vehicle', aVehicle(maker.id, { organizationId: fz, selfNumber: '1201' }));
  busB = await create('vehicle', aVehicle(maker.id, { organizationId: fz }));
  hiddenBus = await create('vehicle', aVehicle(maker.id, { organizationId: hf }));

  const depot = await new AssetApi(t.http, admin).depot({
    station: { name: 'Card Depot', organizationId: fz },
    pile: { chargePointId: unique('CP-CV-') },
  });
  ids['station'] = depot.station.id;
  ids['pile'] = depot.pile.id;
  chargePointId = depot.chargePointId;
}, 60_000);

afterAll(async () => {
  await bus?.close();
  await t?.close();
  await deleteRedisKeys(testEnv().redisUrl, PREFIX);
});

describe('a card issued to a bus', () => {
  it('creates and updates a card with its vehicle; get and list show the plate', async () => {
    const body = aCard({ vehicleId: busA.id });
    const created = await create('card', body);
    expect(created).toMatchObject({ vehicleId: busA.id, vehiclePlate: busA['plate'] });
    expect((await card(created.id)).body).toEqual(created);
    const listed = (await cardPage({ physicalNumber: String(created['physicalNumber']) }))[0];
    expect(listed).toMatchObject({ id: created.id, vehicleId: busA.id, vehiclePlate: busA['plate'] });

    const put = (values: Body) => t.http().put(`/api/card/${created.id}`).set(admin).send(values).expect(200);
    const moved = await put({ ...body, vehicleId: busB.id });
    expect(moved.body).toMatchObject({ vehicleId: busB.id, vehiclePlate: busB['plate'] });
    // PUT takes the whole record: a card sent without its vehicle is unlinked.
    const unlinked = await put({ ...body, vehicleId: undefined });
    expect(unlinked.body).toMatchObject({ vehicleId: null, vehiclePlate: null });
    expect(await create('card', aCard())).toMatchObject({ vehicleId: null, vehiclePlate: null });
  });

  it('filters the list by part of the plate and by vehicle id', async () => {
    const a = await create('card', aCard({ vehicleId: busA.id }));
    const b = await create('card', aCard({ vehicleId: busB.id }));
    const plateA = String(busA['plate']);
    const byPlate = await cardPage({ vehiclePlate: plateA.slice(2) });
    expect(byPlate.map((r) => r.id)).toContain(a.id);
    expect(byPlate.map((r) => r.id)).not.toContain(b.id);
    expect(byPlate.every((r) => r['vehiclePlate'] === plateA)).toBe(true);
    const byId = await cardPage({ vehicleId: busB.id });
    expect(byId.map((r) => r.id)).toContain(b.id);
    expect(byId.every((r) => r['vehicleId'] === busB.id)).toBe(true);
  });

  it('a vehicle that does not exist, or outside the data scope, is a 404 naming vehicleId', async () => {
    const missing = await t
      .http()
      .post('/api/card')
      .set(admin)
      .send(aCard({ vehicleId: 999999 }))
      .expect(404);
    expect(missing.body).toEqual({
      code: 'ASSET_REFERENCE_NOT_FOUND',
      message: 'Vehicle 999999 does not exist',
      details: [{ field: 'vehicleId', message: 'Vehicle 999999 does not exist' }],
      correlationId: expect.any(String),
    });
    const existing = await create('card', aCard(), operator);
    const onUpdate = await t
      .http()
      .put(`/api/card/${existing.id}`)
      .set(operator)
      .send(aCard({ vehicleId: hiddenBus.id }))
      .expect(404);
    const message = `Vehicle ${hiddenBus.id} does not exist`;
    expect(errorOf(onUpdate.body, 'ASSET_REFERENCE_NOT_FOUND').details).toEqual([
      { field: 'vehicleId', message },
    ]);
    // The operator may link a bus of their own organisation.
    await create('card', aCard({ vehicleId: busA.id }), operator);

    const bad = await t
      .http()
      .post('/api/card')
      .set(admin)
      .send(aCard({ vehicleId: 'A1' }))
      .expect(400);
    expect(errorOf(bad.body, 'VALIDATION_FAILED').details as FieldError[]).toEqual([
      { field: 'vehicleId', message: 'Vehicle must be an id' },
    ]);
  });

  it('keeps its bus through a swap; deleting the bus unlinks its cards', async () => {
    const maker = await create('manufacturer', aManufacturer('car'));
    const doomed = await create('vehicle', aVehicle(maker.id));
    const c = await create('card', aCard({ vehicleId: doomed.id, status: 'normal' }));
    const swapped = await t
      .http()
      .post(`/api/card/${c.id}/swap`)
      .set(admin)
      .send({ physicalNumber: unique('SW') })
      .expect(200);
    expect(swapped.body).toMatchObject({ vehicleId: doomed.id, vehiclePlate: doomed['plate'] });

    await t.http().delete(`/api/vehicle/${doomed.id}`).set(admin).expect(204);
    expect((await card(c.id)).body).toMatchObject({ vehicleId: null, vehiclePlate: null });
  });

  it('the card sheet writes and reads the vehicle by its plate', async () => {
    const c = await create('card', aCard({ vehicleId: busA.id }));
    const exported = await sheetRows(
      (
        await download(
          t
            .http()
            .get(`/api/card/export?lang=en-US&physicalNumber=${String(c['physicalNumber'])}`)
            .set(admin),
        ).expect(200)
      ).body,
    );
    const column = exported[0].indexOf('Vehicle');
    expect(column).toBeGreaterThan(0);
    expect(exported[1][column]).toBe(busA['plate']);

    const physical = unique('IMP');
    await t
      .http()
      .post('/api/card/import?lang=en-US')
      .set(admin)
      .attach(
        'file',
        await xlsx([
          ['Physical number', 'Card type', 'Self number', 'Cardholder', 'Vehicle'],
          [physical, 'Driver', unique('S'), 'Night shift', String(busB['plate']).toLowerCase()],
        ]),
        'cards.xlsx',
      )
      .expect(201);
    expect((await cardPage({ physicalNumber: physical }))[0]).toMatchObject({
      vehicleId: busB.id,
      vehiclePlate: busB['plate'],
    });

    const refused = await t
      .http()
      .post('/api/card/import?lang=en-US')
      .set(operator)
      .attach(
        'file',
        await xlsx([
          ['Physical number', 'Card type', 'Self number', 'Cardholder', 'Vehicle'],
          [unique('IMP'), 'Driver', unique('S'), 'Night shift', String(hiddenBus['plate'])],
        ]),
        'cards.xlsx',
      )
      .expect(422);
    expect(refused.body.details.errors).toEqual([
      expect.objectContaining({
        row: 2,
        field: 'vehicleId',
        message: `No vehicle '${String(hiddenBus['plate'])}'`,
      }),
    ]);
  });
});

describe('the bus of a card in orders and monitoring', () => {
  /** A card issued to bus A whose text names neither bus A nor any other plate. */
  let linked: Row;
  /** An old card, not linked, whose cardholder names bus B (the text rule still applies to it). */
  let named: Row;

  beforeAll(async () => {
    linked = await create('card', aCard({ cardholder: 'Depot spare', status: 'normal', vehicleId: busA.id }));
    named = await create('card', aCard({ cardholder: `${String(busB['plate'])} driver`, status: 'normal' }));
  });

  const insertOrder = async (idTag: string, transactionId: number): Promise<number> => {
    // The bus as settlement stores it on the order: the card's, else the one whose VIN, else plate, is the idTag.
    const [row] = await t.db.dataSource.query(
      `INSERT INTO charging_order (order_no, charge_point_id, connector_id, transaction_id, id_tag, started_at,
         stopped_at, meter_start_wh, meter_stop_wh, energy_wh, end_reason, stop_kind, pay_status,
         vehicle_id, vehicle_plate, vehicle_vin)
       SELECT $1, $2, 1, $3, $4, '2026-11-20T07:00:00+08:00', '2026-11-20T08:00:00+08:00', 0, 10000, 10000,
              'EVDisconnected', 'normal', 0, v.id, v.plate, v.vin
         FROM (SELECT 1) one
         LEFT JOIN charging_card c ON c.physical_number = $4
         LEFT JOIN LATERAL (SELECT id, plate, vin FROM vehicle WHERE id = c.vehicle_id OR vin = $4 OR plate = $4
                             ORDER BY CASE WHEN id = c.vehicle_id THEN 0 WHEN vin = $4 THEN 1 ELSE 2 END, id
                             LIMIT 1) v ON true
       RETURNING id`,
      [unique('ORD'), chargePointId, transactionId, idTag],
    );
    return Number(row.id);
  };
  const WIDE = { start: '2026-11-01 00:00:00', end: '2026-11-30 23:59:59' };
  const orders = async (query: Record<string, string>): Promise<ChargingOrderPage> =>
    (
      await t
        .http()
        .get('/api/chargingOrder/page/1/size/50')
        .query({ ...WIDE, ...query })
        .set(admin)
        .expect(200)
    ).body as ChargingOrderPage;

  it('an order shows the bus its card is issued to, and the vehicle filter finds it', async () => {
    const byCard = await insertOrder(String(linked['physicalNumber']), 9001);
    const byText = await insertOrder(String(named['physicalNumber']), 9002);
    const byVin = await insertOrder(String(busB['vin']), 9003);

    const all = await orders({});
    const row = (id: number) => all.list.find((o) => o.id === id);
    expect(row(byCard)).toMatchObject({ vehiclePlate: busA['plate'], vehicleVin: busA['vin'] });
    // Orders keep finding a bus by VIN or plate as the idTag; the card text alone never named one here.
    expect(row(byVin)).toMatchObject({ vehiclePlate: busB['plate'] });
    expect(row(byText)).toMatchObject({ vehiclePlate: null });

    const filtered = await orders({ vehicle: String(busA['plate']).slice(2) });
    expect(filtered.list.map((o) => o.id)).toEqual([byCard]);
    expect((await orders({ vehicle: String(busA['vin']) })).list.map((o) => o.id)).toEqual([byCard]);

    const detail = (await t.http().get(`/api/chargingOrder/${byCard}`).set(admin).expect(200))
      .body as ChargingOrderDetail;
    expect(detail).toMatchObject({ vehiclePlate: busA['plate'], vehicleVin: busA['vin'] });

    const sheet = await sheetRows(
      (
        await download(
          t
            .http()
            .get('/api/chargingOrder/export/xlsx')
            .query({ ...WIDE, card: String(linked['physicalNumber']), lang: 'en-US' })
            .set(admin),
        ).expect(200)
      ).body,
    );
    expect(sheet).toHaveLength(2);
    expect(sheet[1][sheet[0].indexOf('Plate number')]).toBe(busA['plate']);
  });

  it('monitoring reads the link first and the text only for unlinked cards', async () => {
    const repository = new MonitoringAssetsRepository(t.db.dataSource);
    const tags = [String(linked['physicalNumber']), String(named['physicalNumber'])];
    const vehicles = await repository.vehiclesByIdTag(tags);
    expect(vehicles.get(tags[0])).toEqual({ id: busA.id, plate: busA['plate'], selfNumber: '1201' });
    expect(vehicles.get(tags[1])).toEqual(expect.objectContaining({ id: busB.id }));

    // A linked card whose text names another bus belongs to its linked bus only.
    const misleading = await create(
      'card',
      aCard({ cardholder: `${String(busB['plate'])} spare`, status: 'normal', vehicleId: busA.id }),
    );
    const tag = String(misleading['physicalNumber']);
    expect((await repository.vehiclesByIdTag([tag])).get(tag)).toEqual(
      expect.objectContaining({ id: busA.id }),
    );
    const inScope = await repository.vehiclesInScope({ pathPatterns: ['/%'] }, {});
    const idTagsOf = (id: number) => inScope.find((v) => v.id === id)?.idTags ?? [];
    expect(idTagsOf(busA.id)).toEqual(expect.arrayContaining([tags[0], tag]));
    expect(idTagsOf(busB.id)).toContain(tags[1]);
    expect(idTagsOf(busB.id)).not.toContain(tag);
  });

  it('a gun charging with the card shows its bus, and the bus list shows it charging', async () => {
    const cp = chargePointId;
    const pile = new PileEvents(cp);
    const idTag = String(linked['physicalNumber']);
    await bus.publish([
      pile.connected(),
      ...pile.charging(1, {
        connectorId: 1,
        transactionId: 501,
        idTag,
        meterStartWh: 100_000,
        energyWh: 2_000,
        powerW: 90_000,
        soc: 55,
      }),
    ]);
    const gun = await eventually(async () => {
      const view = (await t.http().get(`/api/monitor/station/${ids['station']}`).set(admin).expect(200))
        .body as MonitorStationView;
      const g = view.piles[0].guns[0];
      expect([g.status, g.powerW]).toEqual(['charging', 90_000]);
      return g;
    }, 20_000);
    expect(gun).toMatchObject({ idTag, vehicle: { id: busA.id, plate: busA['plate'], selfNumber: '1201' } });

    const buses = (
      await t
        .http()
        .get(`/api/monitor/vehicle/page/1/size/10?keyword=${encodeURIComponent(String(busA['plate']))}`)
        .set(admin)
        .expect(200)
    ).body as MonitorVehiclePage;
    expect(buses.list).toEqual([
      expect.objectContaining({ id: busA.id, chargeStatus: 'parkingCharge', soc: 55, chargePointId: cp }),
    ]);
  });
});
