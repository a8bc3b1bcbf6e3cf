/**
 * Live monitoring through the real api: the read model fed by gateway events on the bus, the screens'
 * routes with their permissions and data scope, and the pile commands' validation and failures.
 * (Commands reaching a real pile, and the STOMP push, are in apps/system-tests live-monitoring.)
 */
import { randomUUID } from 'node:crypto';
import type {
  MonitorStationSummary,
  MonitorStationView,
  MonitorVehiclePage,
} from '@voltdepot/shared-contracts';
import { RedisStreamsBus } from '@voltdepot/server-messaging';
import {
  deleteRedisKeys,
  eventually,
  insertCard,
  insertDepot,
  insertManufacturer,
  insertVehicle,
  organizationId,
  PileEvents,
  testEnv,
} from '@voltdepot/server-testing';
import {
  ADMIN_PASSWORD,
  bearer,
  DEMO_PASSWORD,
  errorOf,
  startApiTestApp,
  type ApiTestApp,
} from '../fixtures/api-test-app';

const prefix = `vdmonapi${randomUUID().slice(0, 6)}`;
const run = randomUUID().slice(0, 4).toUpperCase();
const cpFz = `FZ-${run}-01`;
const cpHf = `HF-${run}-01`;
const cards = { fz: `FZ${run}01`, hf: `HF${run}01` };
const plates = { fz: `闽A·${run}1`, hf: `皖A·${run}1` };

type Ids = { stationFz: number; stationHf: number; vehicleFz: number; vehicleHf: number };

/** Two depots in two organisations (FZ, HF), a two-gun pile each, a bus and its card each. */
async function seed(app: ApiTestApp): Promise<Ids> {
  const db = app.db.dataSource;
  const makerId = await insertManufacturer(db);
  const depot = async (organization: string, number: string, name: string, cp: string) =>
    (
      await insertDepot(db, {
        organization,
        station: { number, name },
        pile: { name: cp, number: cp, charge_point_id: cp, gun_count: 2 },
        guns: 2,
      })
    ).stationId;
  const vehicle = async (organization: string, plate: string, card: string, self: string) => {
    const { id } = await insertVehicle(db, {
      organization,
      vin: `LVD${run}${self}`.padEnd(17, '0'),
      plate,
      self_number: self,
      manufacturer_id: makerId,
    });
    await insertCard(db, {
      organization,
      physical_number: card,
      self_number: `C${card}`,
      cardholder: `${plate} 驾驶员`,
    });
    return id;
  };
  const stationFz = await depot('FZ', `FZ${run}`, 'Fuzhou North Yard', cpFz);
  const stationHf = await depot('HF', `HF${run}`, 'Hefei East Yard', cpHf);
  const vehicleFz = await vehicle('FZ', plates.fz, cards.fz, `1${run}`);
  const vehicleHf = await vehicle('HF', plates.hf, cards.hf, `2${run}`);
  // The operator role sees the FZ subtree only in this test, so data scope has something to refuse.
  await db.query(
    `UPDATE sys_role_organization SET organization_id = $1 WHERE role_id = (SELECT id FROM sys_role WHERE code = 'operator')`,
    [await organizationId(db, 'FZ')],
  );
  return { stationFz, stationHf, vehicleFz, vehicleHf };
}

describe('live monitoring api', () => {
  let app: ApiTestApp;
  let bus: RedisStreamsBus;
  let ids: Ids;
  const tokens: Record<string, string> = {};
  const fz = new PileEvents(cpFz, Date.now() - 120_000);
  const at = (seconds: number) => fz.at(seconds);

  beforeAll(async () => {
    app = await startApiTestApp({ BUS_PREFIX: prefix, OCPP_REDIS_PREFIX: prefix }, [], { worker: true });
    ids = await seed(app);
    bus = new RedisStreamsBus({ url: testEnv().redisUrl, prefix, trimIntervalMs: 0 });
    for (const [user, password] of [
      ['admin', ADMIN_PASSWORD],
      ['operator', DEMO_PASSWORD],
      ['maintainer', DEMO_PASSWORD],
      ['fleet', DEMO_PASSWORD],
    ]) {
      tokens[user] = (await app.login(user, password)).accessToken;
    }
  }, 60_000);

  afterAll(async () => {
    await bus?.close();
    await app?.close();
    await deleteRedisKeys(testEnv().redisUrl, prefix);
  });

  const get = (user: string, path: string) => app.http().get(path).set(bearer(tokens[user]));

  it('refuses the screens to users without their permission', async () => {
    // Maintenance staff watch stations and piles, not buses; the fleet manager stations and buses.
    await get('maintainer', '/api/monitor/station/list').expect(200);
    await get('maintainer', '/api/monitor/pile/page/1/size/10').expect(200);
    errorOf((await get('maintainer', '/api/monitor/vehicle/page/1/size/10').expect(403)).body, 'FORBIDDEN');
    await get('fleet', '/api/monitor/station/list').expect(200);
    errorOf((await get('fleet', '/api/monitor/pile/page/1/size/10').expect(403)).body, 'FORBIDDEN');
    await get('fleet', '/api/monitor/vehicle/page/1/size/10').expect(200);
    await app.http().get('/api/monitor/station/list').expect(401);
  });

  it("lists only the stations of the caller's data scope; another one looks non-existent", async () => {
    const all = (await get('admin', '/api/monitor/station/list').expect(200)).body as MonitorStationSummary[];
    expect(all.map((s) => s.id)).toEqual(expect.arrayContaining([ids.stationFz, ids.stationHf]));
    const mine = (await get('operator', '/api/monitor/station/list').expect(200))
      .body as MonitorStationSummary[];
    expect(mine.map((s) => s.id)).toContain(ids.stationFz);
    expect(mine.map((s) => s.id)).not.toContain(ids.stationHf);
    const res = await get('operator', `/api/monitor/station/${ids.stationHf}`).expect(404);
    expect(errorOf(res.body, 'MONITOR_STATION_NOT_FOUND').message).toBe(
      `Station ${ids.stationHf} does not exist`,
    );
    errorOf((await get('operator', '/api/monitor/station/abc').expect(400)).body, 'VALIDATION_FAILED');
  });

  it("shows a station's guns offline before their pile was ever heard of", async () => {
    const view = (await get('operator', `/api/monitor/station/${ids.stationFz}`).expect(200))
      .body as MonitorStationView;
    expect(view.piles).toHaveLength(1);
    expect(view.piles[0]).toEqual(expect.objectContaining({ chargePointId: cpFz, online: false }));
    expect(view.piles[0].guns.map((g) => [g.name, g.connectorId, g.status])).toEqual([
      ['Gun 1', 1, 'offline'],
      ['Gun 2', 2, 'offline'],
    ]);
    expect(view.guns.offline).toBe(2);
  });

  it("follows the gateway's events: the gun charges the bus of its card, then the bus is charged", async () => {
    await bus.publish([
      fz.connected(),
      fz.status(1, 'Available', 1),
      fz.status(2, 'Available', 1),
      ...fz.charging(10, {
        connectorId: 1,
        transactionId: 77,
        idTag: cards.fz,
        meterStartWh: 500_000,
        energyWh: 3_000,
        powerW: 110_000,
        soc: 24.5,
      }),
    ]);
    const view = await eventually(async () => {
      const body = (await get('operator', `/api/monitor/station/${ids.stationFz}`).expect(200))
        .body as MonitorStationView;
      // Status and transaction events travel on two topics, each in order: wait for the last of both.
      expect([body.piles[0].guns[0].powerW, body.piles[0].guns[0].status]).toEqual([110_000, 'charging']);
      return body;
    }, 20_000);
    expect(view.pilesOnline).toBe(1);
    expect(view.guns).toEqual(expect.objectContaining({ charging: 1, idle: 1, offline: 0 }));
    expect(view.piles[0].guns[0]).toEqual(
      expect.objectContaining({
        status: 'charging',
        since: at(12),
        transactionId: 77,
        energyWh: 3_000,
        soc: 24.5,
        vehicle: { id: ids.vehicleFz, plate: plates.fz, selfNumber: `1${run}` },
      }),
    );

    const buses = (
      await get(
        'operator',
        `/api/monitor/vehicle/page/1/size/10?keyword=${encodeURIComponent(plates.fz)}`,
      ).expect(200)
    ).body as MonitorVehiclePage;
    expect(buses.total).toBe(1);
    expect(buses.list[0]).toEqual(
      expect.objectContaining({
        id: ids.vehicleFz,
        chargeStatus: 'parkingCharge',
        soc: 24.5,
        lowSoc: true,
        chargePointId: cpFz,
        connectorId: 1,
        stationId: ids.stationFz,
        stationName: 'Fuzhou North Yard',
        powerW: 110_000,
        energyWh: 3_000,
      }),
    );
    expect(buses.stationIds).toContain(ids.stationFz);
    expect(buses.stationIds).not.toContain(ids.stationHf);
    const low = (await get('operator', '/api/monitor/vehicle/page/1/size/10?lowSoc=true').expect(200))
      .body as MonitorVehiclePage;
    expect(low.list.map((v) => v.id)).toEqual([ids.vehicleFz]);
    expect(low.summary).toEqual({
      lowSoc: 1,
      byStatus: { uncharged: 0, parkingCharge: 1, drivingCharge: 0, complete: 0 },
    });

    await bus.publish([
      fz.stopped(30, { transactionId: 77, idTag: cards.fz, meterStartWh: 500_000, meterStopWh: 504_000 }),
      fz.status(1, 'Finishing', 30),
      fz.status(1, 'Available', 31),
    ]);
    const done = await eventually(async () => {
      const body = (
        await get('operator', `/api/monitor/vehicle/page/1/size/10?chargeStatus=complete`).expect(200)
      ).body as MonitorVehiclePage;
      expect(body.total).toBe(1);
      return body.list[0];
    }, 20_000);
    expect(done).toEqual(
      expect.objectContaining({ id: ids.vehicleFz, powerW: 0, energyWh: 4_000, sessionEndedAt: at(30) }),
    );
    const idle = await eventually(async () => {
      const body = (await get('operator', `/api/monitor/station/${ids.stationFz}`).expect(200))
        .body as MonitorStationView;
      expect(body.piles[0].guns[0].status).toBe('idle');
      return body;
    }, 20_000);
    expect(idle.piles[0].guns[0]).toEqual(
      expect.objectContaining({ status: 'idle', since: at(31), powerW: null, vehicle: null }),
    );
  });

  it("keeps the bus list to the caller's scope and checks its filters", async () => {
    const fleet = (await get('fleet', '/api/monitor/vehicle/page/1/size/50').expect(200))
      .body as MonitorVehiclePage;
    // The fleet manager works at the Hefei depot: its buses, not Fuzhou's.
    expect(fleet.list.map((v) => v.id)).toContain(ids.vehicleHf);
    expect(fleet.list.map((v) => v.id)).not.toContain(ids.vehicleFz);
    const res = await get('admin', '/api/monitor/vehicle/page/0/size/501').expect(400);
    const fields = (errorOf(res.body, 'VALIDATION_FAILED').details as { field: string }[]).map(
      (d) => d.field,
    );
    expect(fields.sort()).toEqual(['page', 'size']);
    const query = await get(
      'admin',
      '/api/monitor/vehicle/page/1/size/10?chargeStatus=flying&lowSoc=maybe',
    ).expect(400);
    expect(
      (errorOf(query.body, 'VALIDATION_FAILED').details as { field: string }[]).map((d) => d.field).sort(),
    ).toEqual(['chargeStatus', 'lowSoc']);
  });

  it('lists piles with online and gun-status filters', async () => {
    const online = (await get('admin', '/api/monitor/pile/page/1/size/10?online=true').expect(200)).body;
    expect(online.list.map((p: { chargePointId: string }) => p.chargePointId)).toContain(cpFz);
    expect(online.list.map((p: { chargePointId: string }) => p.chargePointId)).not.toContain(cpHf);
    const offline = (
      await get('admin', `/api/monitor/pile/page/1/size/10?online=false&keyword=${run}`).expect(200)
    ).body;
    expect(offline).toEqual({
      list: [expect.objectContaining({ chargePointId: cpHf, stationName: 'Hefei East Yard' })],
      total: 1,
    });
    const idle = (
      await get('admin', `/api/monitor/pile/page/1/size/10?gunStatus=idle&keyword=${run}`).expect(200)
    ).body;
    expect(idle.list.map((p: { chargePointId: string }) => p.chargePointId)).toEqual([cpFz]);
    const charging = (
      await get('admin', `/api/monitor/pile/page/1/size/10?gunStatus=charging&keyword=${run}`).expect(200)
    ).body;
    expect(charging).toEqual({ list: [], total: 0 });
    const stations = (await get('operator', '/api/monitor/pile/stations').expect(200)).body as {
      id: number;
    }[];
    expect(stations.map((s) => s.id)).toEqual([ids.stationFz]);
  });

  describe('pile commands', () => {
    const post = (user: string, cp: string, action: string, body: unknown) =>
      app
        .http()
        .post(`/api/monitor/pile/${cp}/command/${action}`)
        .set(bearer(tokens[user]))
        .send(body as object);

    it.each([
      ['an unknown action', 'Explode', {}, ['action']],
      ['a start without gun or card', 'RemoteStartTransaction', {}, ['connectorId', 'idTag']],
      [
        'a card number over 20 characters',
        'RemoteStartTransaction',
        { connectorId: 1, idTag: 'X'.repeat(21) },
        ['idTag'],
      ],
      ['a gun 0 to unlock', 'UnlockConnector', { connectorId: 0 }, ['connectorId']],
      [
        'a stop of a transaction id beyond 32 bits',
        'RemoteStopTransaction',
        { transactionId: 1e20 },
        ['transactionId'],
      ],
      ['a reset of no known type', 'Reset', { type: 'Gentle' }, ['type']],
      ['an availability without type', 'ChangeAvailability', { connectorId: 0 }, ['type']],
      // A field the command does not take is named by the root error.
      [
        'a stop without transaction',
        'RemoteStopTransaction',
        { connectorId: 1 },
        ['transactionId', '(root)'],
      ],
    ])('refuses %s (400, naming the fields)', async (_case, action, body, fields) => {
      const res = await post('operator', cpFz, action, body).expect(400);
      const named = (errorOf(res.body, 'VALIDATION_FAILED').details as { field: string }[]).map(
        (d) => d.field,
      );
      expect(named.sort()).toEqual([...fields].sort());
    });

    it("needs the pile:command permission and a pile of the caller's scope", async () => {
      errorOf((await post('fleet', cpHf, 'Reset', { type: 'Soft' }).expect(403)).body, 'FORBIDDEN');
      // Maintenance staff command the piles of their own depot (Hefei) only.
      errorOf(
        (await post('maintainer', cpFz, 'Reset', { type: 'Soft' }).expect(404)).body,
        'MONITOR_PILE_NOT_FOUND',
      );
      const res = await post('operator', cpHf, 'Reset', { type: 'Soft' }).expect(404);
      expect(errorOf(res.body, 'MONITOR_PILE_NOT_FOUND').message).toBe(`Pile ${cpHf} does not exist`);
    });

    it('answers 409 for a pile no gateway holds, and journals the attempt', async () => {
      const res = await post('admin', cpHf, 'Reset', { type: 'Hard' }).expect(409);
      expect(errorOf(res.body, 'OCPP_PILE_OFFLINE').message).toBe(`pile ${cpHf} is not connected`);
      const journal = await app.db.dataSource.query(
        `SELECT action, params, status, error FROM pile_command WHERE charge_point_id = $1`,
        [cpHf],
      );
      expect(journal).toEqual([
        {
          action: 'Reset',
          params: { type: 'Hard' },
          status: 'offline',
          error: `OCPP_PILE_OFFLINE: pile ${cpHf} is not connected`,
        },
      ]);
    });
  });
});
