/**
 * Driving charge and parking charge in the bus list (business-areas §4): a bus charging at a pile is a
 * driving charge while it is in service (the vehicle's operational status, set through the vehicle grid)
 * and a parking charge when it is not. Sessions come from gateway events on the bus, as in production.
 */
import { randomBytes } from 'node:crypto';
import { RedisStreamsBus } from '@voltdepot/server-messaging';
import {
  aCard,
  aManufacturer,
  AssetApi,
  aVehicle,
  deleteRedisKeys,
  eventually,
  PileEvents,
  testEnv,
  unique,
} from '@voltdepot/server-testing';
import type { MonitorVehiclePage, MonitorVehicleView } from '@voltdepot/shared-contracts';
import { ADMIN_PASSWORD, ApiTestApp, bearer, startApiTestApp } from '../fixtures/api-test-app';

type Body = Record<string, unknown>;
type Row = Body & { id: number };

const PREFIX = `vdbusop${randomBytes(4).toString('hex')}`;
/** In every self number of this file's buses: the bus list's keyword finds them and nothing else. */
const RUN = randomBytes(3).toString('hex').toUpperCase();

let t: ApiTestApp;
let bus: RedisStreamsBus;
let admin: { authorization: string };
let chargePointId: string;
/** The bodies the buses were created with (PUT takes the whole record). */
const bodies: Record<'inService' | 'depot', Body> = { inService: {}, depot: {} };
const buses: Record<'inService' | 'depot', Row> = {} as never;
const cards: Record<'inService' | 'depot', string> = { inService: '', depot: '' };

const setOperational = async (which: 'inService' | 'depot', operational: boolean) =>
  (
    await t
      .http()
      .put(`/api/vehicle/${buses[which].id}`)
      .set(admin)
      .send({ ...bodies[which], operational })
      .expect(200)
  ).body as Row;

const busList = async (query: Record<string, string> = {}): Promise<MonitorVehiclePage> =>
  (
    await t
      .http()
      .get('/api/monitor/vehicle/page/1/size/10')
      .query({ keyword: RUN, ...query })
      .set(admin)
      .expect(200)
  ).body as MonitorVehiclePage;

beforeAll(async () => {
  t = await startApiTestApp({ BUS_PREFIX: PREFIX, OCPP_REDIS_PREFIX: PREFIX }, [], { worker: true });
  bus = new RedisStreamsBus({ url: testEnv().redisUrl, prefix: PREFIX, trimIntervalMs: 0 });
  admin = bearer(await t.login('admin', ADMIN_PASSWORD));
  const assets = new AssetApi(t.http, admin);
  const create = (kind: string, body: Body) => assets.create(kind, body);

  const maker = await create('manufacturer', aManufacturer('car'));
  bodies.inService = aVehicle(maker.id, { selfNumber: `${RUN}1` });
  bodies.depot = aVehicle(maker.id, { selfNumber: `${RUN}2` });
  buses.inService = await create('vehicle', bodies.inService);
  buses.depot = await create('vehicle', bodies.depot);
  for (const which of ['inService', 'depot'] as const) {
    const card = await create('card', aCard({ status: 'normal', vehicleId: buses[which].id }));
    cards[which] = String(card['physicalNumber']);
  }

  const depot = await assets.depot({
    station: { name: 'Terminus Yard' },
    pile: { chargePointId: unique('CP-OP-') },
    guns: [
      { name: 'Gun 1', channelNumber: 1 },
      { name: 'Gun 2', channelNumber: 2 },
    ],
  });
  chargePointId = depot.chargePointId;
}, 60_000);

afterAll(async () => {
  await bus?.close();
  await t?.close();
  await deleteRedisKeys(testEnv().redisUrl, PREFIX);
});

describe('the bus list tells a driving charge from a parking charge', () => {
  const row = (page: MonitorVehiclePage, which: 'inService' | 'depot'): MonitorVehicleView | undefined =>
    page.list.find((v) => v.id === buses[which].id);

  it('shows both buses uncharged and out of service before anything happens', async () => {
    const page = await busList();
    expect(page.total).toBe(2);
    expect(page.list.map((v) => [v.operational, v.chargeStatus, v.powerW])).toEqual([
      [false, 'uncharged', null],
      [false, 'uncharged', null],
    ]);
  });

  it('a bus marked in service charges as a driving charge, one out of service as a parking charge', async () => {
    expect((await setOperational('inService', true))['operational']).toBe(true);
    const pile = new PileEvents(chargePointId);
    const session = { meterStartWh: 100_000, energyWh: 4_000 };
    await bus.publish([
      pile.connected(),
      ...pile.charging(1, {
        ...session,
        connectorId: 1,
        transactionId: 801,
        idTag: cards.inService,
        powerW: 150_000,
        soc: 42,
      }),
      ...pile.charging(1, {
        ...session,
        connectorId: 2,
        transactionId: 802,
        idTag: cards.depot,
        powerW: 60_000,
        soc: 25,
      }),
    ]);
    const page = await eventually(async () => {
      const body = await busList();
      expect(body.list.map((v) => v.powerW ?? 0).sort((a, b) => a - b)).toEqual([60_000, 150_000]);
      return body;
    }, 20_000);
    expect(row(page, 'inService')).toEqual(
      expect.objectContaining({
        operational: true,
        chargeStatus: 'drivingCharge',
        powerW: 150_000,
        energyWh: 4_000,
        soc: 42,
        lowSoc: false,
        chargePointId,
        connectorId: 1,
        stationName: 'Terminus Yard',
        sessionEndedAt: null,
      }),
    );
    expect(row(page, 'depot')).toEqual(
      expect.objectContaining({
        operational: false,
        chargeStatus: 'parkingCharge',
        powerW: 60_000,
        energyWh: 4_000,
        soc: 25,
        lowSoc: true,
        chargePointId,
        connectorId: 2,
      }),
    );
    expect(page.summary).toEqual({
      lowSoc: 1,
      byStatus: { uncharged: 0, parkingCharge: 1, drivingCharge: 1, complete: 0 },
    });

    const driving = await busList({ chargeStatus: 'drivingCharge' });
    expect(driving.list.map((v) => v.id)).toEqual([buses.inService.id]);
    expect(driving.summary.byStatus).toEqual({
      uncharged: 0,
      parkingCharge: 0,
      drivingCharge: 1,
      complete: 0,
    });
    const parking = await busList({ chargeStatus: 'parkingCharge' });
    expect(parking.list.map((v) => v.id)).toEqual([buses.depot.id]);
  });

  it('follows the vehicle record: taken out of service mid-session, the charge becomes a parking charge', async () => {
    await setOperational('inService', false);
    await setOperational('depot', true);
    const page = await busList();
    expect(row(page, 'inService')).toEqual(
      expect.objectContaining({ operational: false, chargeStatus: 'parkingCharge', powerW: 150_000 }),
    );
    expect(row(page, 'depot')).toEqual(
      expect.objectContaining({ operational: true, chargeStatus: 'drivingCharge', powerW: 60_000 }),
    );
    expect(page.summary.byStatus).toEqual({ uncharged: 0, parkingCharge: 1, drivingCharge: 1, complete: 0 });
  });
});
