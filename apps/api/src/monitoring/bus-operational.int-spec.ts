/**
 * Driving charge and parking charge in the bus list (business-areas §4): a bus charging at a pile is a
 * driving charge while it is in service (the vehicle's operational status, set through the vehicle grid)
 * and a parking charge when it is not. Sessions come from gateway events on the bus, as in production.
 */
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { createEnvelope, RedisStreamsBus } from '@voltdepot/server-messaging';
import { eventually, testEnv } from '@voltdepot/server-testing';
import type { MonitorVehiclePage, MonitorVehicleView } from '@voltdepot/shared-contracts';
import {
  ConnectorStatusChanged,
  MeterValuesReceived,
  PileConnected,
  TransactionStarted,
  type EventEnvelope,
} from '@voltdepot/shared-events';
import { ADMIN_PASSWORD, ApiTestApp, bearer, startApiTestApp } from '../fixtures/api-test-app';
import {
  aCard,
  aGun,
  aLabel,
  aManufacturer,
  aPile,
  aRegion,
  aStation,
  aVehicle,
  unique,
} from '../fixtures/asset-builders';

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

async function create(kind: string, body: Body): Promise<Row> {
  const res = await t.http().post(`/api/${kind}`).set(admin).send(body);
  if (res.status !== 201) throw new Error(`create ${kind} -> ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Row;
}

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

  const maker = await create('manufacturer', aManufacturer('car'));
  bodies.inService = aVehicle(maker.id, { selfNumber: `${RUN}1` });
  bodies.depot = aVehicle(maker.id, { selfNumber: `${RUN}2` });
  buses.inService = await create('vehicle', bodies.inService);
  buses.depot = await create('vehicle', bodies.depot);
  for (const which of ['inService', 'depot'] as const) {
    const card = await create('card', aCard({ status: 'normal', vehicleId: buses[which].id }));
    cards[which] = String(card['physicalNumber']);
  }

  const labels = await Promise.all(
    ['payment', 'nationalStandard', 'chargingType'].map((type) => create('label', aLabel(type))),
  );
  const region = await create('region', aRegion());
  const station = await create(
    'station',
    aStation(
      region.id,
      labels.map((l) => l.id),
      { name: 'Terminus Yard' },
    ),
  );
  chargePointId = unique('CP-OP-');
  const pile = await create('pile', aPile(station.id, { chargePointId }));
  await create('gun', aGun(pile.id, { name: 'Gun 1', channelNumber: 1 }));
  await create('gun', aGun(pile.id, { name: 'Gun 2', channelNumber: 2 }));
}, 60_000);

afterAll(async () => {
  await bus?.close();
  await t?.close();
  const redis = new Redis(testEnv().redisUrl);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${PREFIX}*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
});

describe('the bus list tells a driving charge from a parking charge', () => {
  const T0 = Date.now() - 60_000;
  const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
  const envelope = <P>(
    definition: Parameters<typeof createEnvelope<string, P>>[0],
    payload: P,
    time: string,
  ) =>
    createEnvelope(definition, chargePointId, payload, {
      occurredAt: time,
      correlationId: `${chargePointId}:s1`,
    }) as EventEnvelope;
  const status = (connectorId: number, s: string, seconds: number) =>
    envelope(
      ConnectorStatusChanged,
      { chargePointId, connectorId, status: s, errorCode: 'NoError', timestamp: at(seconds) },
      at(seconds),
    );
  /** A session of `idTag` on gun `connectorId`, charging at `powerW` with `soc`. */
  const charging = (
    connectorId: number,
    transactionId: number,
    idTag: string,
    powerW: number,
    soc: number,
  ) => [
    status(connectorId, 'Preparing', 1),
    envelope(
      TransactionStarted,
      {
        chargePointId,
        connectorId,
        transactionId,
        idTag,
        meterStartWh: 100_000,
        timestamp: at(2),
        idTagStatus: 'Accepted',
      },
      at(2),
    ),
    status(connectorId, 'Charging', 3),
    envelope(
      MeterValuesReceived,
      {
        chargePointId,
        connectorId,
        transactionId,
        flagged: false,
        samples: [
          { timestamp: at(10), measurand: 'Energy.Active.Import.Register', value: 104_000, unit: 'Wh' },
          { timestamp: at(10), measurand: 'Power.Active.Import', value: powerW, unit: 'W' },
          { timestamp: at(10), measurand: 'SoC', value: soc, unit: 'Percent' },
        ],
      },
      at(10),
    ),
  ];
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
    await bus.publish([
      envelope(PileConnected, { chargePointId, replicaId: 'gw' }, at(0)),
      ...charging(1, 801, cards.inService, 150_000, 42),
      ...charging(2, 802, cards.depot, 60_000, 25),
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
