import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import pino from 'pino';
import WebSocket from 'ws';
import argon2 from 'argon2';
import ExcelJS from 'exceljs';
import { RedisStreamsBus } from '@voltdepot/server-messaging';
import { SimulatedPile } from '@voltdepot/server-ocpp-simulator';
import {
  aCard,
  aLabel,
  aPile,
  aRegion,
  aStation,
  eventually,
  PILE_PASSWORD,
  testEnv,
  unique,
} from '@voltdepot/server-testing';
// The gateway is started in-process, the way its own tests do.
import { OcppGateway } from '@voltdepot/server-ocpp-gateway';
import { pilePasswordHasherOf } from '@voltdepot/server-pile-credentials';
import { ADMIN_PASSWORD, ApiTestApp, bearer, errorOf, startApiTestApp } from '../fixtures/api-test-app';

type Body = Record<string, unknown>;

/** The api and the gateway below both run on the development key (no PILE_PASSWORD_KEY in their configuration). */
const passwords = pilePasswordHasherOf({}).hasher;

/**
 * The api and a real OCPP gateway on one database: hosts and cards written through the api are what the
 * gateway lets in and authorizes, within its refresh interval.
 */
describe('charging hosts and cards reach the OCPP gateway', () => {
  let t: ApiTestApp;
  let admin: { authorization: string };
  let gateway: OcppGateway;
  let redis: Redis;
  let bus: RedisStreamsBus;
  const prefix = `vdtest-${randomUUID().slice(0, 8)}`;
  const piles: SimulatedPile[] = [];
  let stationId: number;

  const url = () => `ws://127.0.0.1:${gateway.port}/ocpp`;

  async function post(path: string, body: Body, status = 201): Promise<Body> {
    const res = await t.http().post(path).set(admin).send(body);
    if (res.status !== status) throw new Error(`${path} -> ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Body;
  }

  function simulatedPile(chargePointId: string, password: string): SimulatedPile {
    const pile = new SimulatedPile({
      url: url(),
      chargePointId,
      password,
      connectors: 2,
      bootRetryMs: 100,
      reconnectDelayMs: 100,
      callTimeoutMs: 5_000,
    });
    piles.push(pile);
    return pile;
  }

  /** Status of the HTTP upgrade: 101 when the gateway lets the pile in. */
  function handshakeStatus(chargePointId: string, password: string): Promise<number> {
    const ws = new WebSocket(`${url()}/${encodeURIComponent(chargePointId)}`, ['ocpp1.6'], {
      headers: { authorization: `Basic ${Buffer.from(`${chargePointId}:${password}`).toString('base64')}` },
    });
    return new Promise<number>((resolve) => {
      ws.on('error', () => resolve(-1));
      ws.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        ws.terminate();
      });
      ws.once('open', () => {
        resolve(101);
        ws.close();
      });
    });
  }

  beforeAll(async () => {
    t = await startApiTestApp();
    admin = bearer(await t.login('admin', ADMIN_PASSWORD));
    redis = new Redis(testEnv().redisUrl);
    bus = new RedisStreamsBus({ url: testEnv().redisUrl, prefix, blockMs: 100, trimIntervalMs: 0 });
    gateway = new OcppGateway(
      { dataSource: t.db.dataSource, redis, bus, logger: pino({ level: 'silent' }) },
      {
        OCPP_PORT: 0,
        OCPP_HOST: '127.0.0.1',
        OCPP_REDIS_PREFIX: prefix,
        OCPP_REPLICA_ID: `api-test-${randomUUID().slice(0, 6)}`,
        OCPP_REGISTRY_REFRESH_MS: 200,
        OCPP_ID_TAG_CACHE_MS: 0,
        messageLogFlushMs: 50,
      },
    );
    await gateway.start();
    const labelIds: number[] = [];
    for (const type of ['payment', 'nationalStandard', 'chargingType'])
      labelIds.push(Number((await post('/api/label', aLabel(type)))['id']));
    const regionId = Number((await post('/api/region', aRegion()))['id']);
    stationId = Number((await post('/api/station', aStation(regionId, labelIds)))['id']);
  });

  afterAll(async () => {
    for (const pile of piles) await pile.stop();
    await gateway?.stop();
    await bus?.close();
    if (redis) {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    }
    await t?.close();
  });

  it('a host created through the api is in the registry (keyed hash) and its pile boots Accepted', async () => {
    const created = await post('/api/pile', aPile(stationId, { deviceStatus: 50 }));
    const chargePointId = String(created['chargePointId']);
    expect(created).toMatchObject({ gatewayState: 'active', hasOcppPassword: true });
    expect(created).not.toHaveProperty('ocppPassword');
    const [row] = await t.db.dataSource.query(
      'SELECT state, password_hash FROM pile_registry WHERE charge_point_id = $1',
      [chargePointId],
    );
    expect(row.state).toBe('active');
    expect(row.password_hash).toMatch(/^hmac-sha256\$v1\$dev\$/);
    expect(passwords.formOf(row.password_hash)).toBe('current');
    expect(await passwords.verify(row.password_hash, PILE_PASSWORD)).toEqual({ match: true });

    const pile = simulatedPile(chargePointId, PILE_PASSWORD);
    await pile.start();
    expect(pile.registrationStatus).toBe('Accepted');
    expect(await handshakeStatus(chargePointId, 'wrong-password-0123456')).toBe(401);
  });

  it('a host imported from a sheet is in the registry the same way and its pile boots Accepted', async () => {
    const chargePointId = unique('IMP-');
    const password = 'sheet-imported-0123456';
    const station = (await t.http().get(`/api/station/${stationId}`).set(admin).expect(200)).body as Body;
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('hosts');
    sheet.addRow([
      'Number',
      'Name',
      'Charge point id',
      'Station',
      'Type',
      'Maximum power (W)',
      'Rated power (W)',
      'Device status',
      'Guns',
      'Protocol version',
      'OCPP password',
    ]);
    sheet.addRow([
      unique('P'),
      'Imported host',
      chargePointId,
      String(station['number']),
      'Alternating current (AC)',
      120000,
      120000,
      'Normal after acceptance',
      2,
      'ocpp1.6',
      password,
    ]);
    const res = await t
      .http()
      .post('/api/pile/import?lang=en-US')
      .set(admin)
      .attach('file', Buffer.from(await book.xlsx.writeBuffer()), 'hosts.xlsx')
      .expect(201);
    expect(res.body).toMatchObject({ imported: 1, failed: 0 });
    const [row] = await t.db.dataSource.query(
      'SELECT state, password_hash FROM pile_registry WHERE charge_point_id = $1',
      [chargePointId],
    );
    expect(row.state).toBe('active');
    expect(row.password_hash).toMatch(/^hmac-sha256\$v1\$dev\$/);
    expect(await passwords.verify(row.password_hash, password)).toEqual({ match: true });

    // The gateway picks the new registry row up within its refresh interval.
    await eventually(async () => expect(await handshakeStatus(chargePointId, password)).toBe(101));
    const pile = simulatedPile(chargePointId, password);
    await pile.start();
    expect(pile.registrationStatus).toBe('Accepted');
    expect(await handshakeStatus(chargePointId, 'wrong-password-0123456')).toBe(401);
  });

  it('device status drives the gateway: 1 pending, 50 active, 5 and 6 disabled (batch too)', async () => {
    const created = await post('/api/pile', aPile(stationId, { deviceStatus: 1 }));
    const id = Number(created['id']);
    const state = async () =>
      (
        await t.db.dataSource.query('SELECT state FROM pile_registry WHERE charge_point_id = $1', [
          created['chargePointId'],
        ])
      )[0].state;
    expect(await state()).toBe('pending');
    const body = { ...aPile(stationId), number: created['number'], chargePointId: created['chargePointId'] };
    delete (body as Body)['ocppPassword'];
    for (const [deviceStatus, expected] of [
      [6, 'disabled'],
      [5, 'disabled'],
      [50, 'active'],
    ] as const) {
      await t
        .http()
        .put(`/api/pile/${id}`)
        .set(admin)
        .send({ ...body, deviceStatus })
        .expect(200);
      expect(await state()).toBe(expected);
    }
    // Updating without a password keeps the one the pile has.
    const pile = simulatedPile(String(created['chargePointId']), PILE_PASSWORD);
    await pile.start();
    expect(pile.registrationStatus).toBe('Accepted');

    expect(await post('/api/pile/batch/disable', { ids: [id] }, 201)).toEqual({ updated: 1 });
    expect(await state()).toBe('disabled');
    expect((await t.http().get(`/api/pile/${id}`).set(admin).expect(200)).body.deviceStatus).toBe(5);
    await post('/api/pile/batch/enable', { ids: [id] }, 201);
    expect(await state()).toBe('active');
  });

  /** A bare OCPP connection: calls answered in order, and the close code once the gateway closes it. */
  async function rawConnection(chargePointId: string, password: string) {
    const ws = new WebSocket(`${url()}/${encodeURIComponent(chargePointId)}`, ['ocpp1.6'], {
      headers: { authorization: `Basic ${Buffer.from(`${chargePointId}:${password}`).toString('base64')}` },
    });
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    const replies = new Map<string, (frame: unknown[]) => void>();
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as unknown[];
      replies.get(String(frame[1]))?.(frame);
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return {
      closed,
      close: () => ws.terminate(),
      call: (action: string, params: Body): Promise<unknown[]> => {
        const id = randomUUID();
        const reply = new Promise<unknown[]>((resolve) => replies.set(id, resolve));
        ws.send(JSON.stringify([2, id, action, params]));
        return reply;
      },
    };
  }

  const BOOT = { chargePointVendor: 'Test', chargePointModel: 'Raw' };

  it('disabling a connected pile closes its connection; it stays refused until enabled again', async () => {
    const created = await post('/api/pile', aPile(stationId, { deviceStatus: 50 }));
    const id = Number(created['id']);
    const chargePointId = String(created['chargePointId']);
    await eventually(async () => expect(await handshakeStatus(chargePointId, PILE_PASSWORD)).toBe(101));
    const first = await rawConnection(chargePointId, PILE_PASSWORD);
    expect((await first.call('BootNotification', BOOT))[2]).toMatchObject({ status: 'Accepted' });

    await post('/api/pile/batch/disable', { ids: [id] }, 201);
    // Closed by the gateway within its registry refresh (200 ms here), with the revocation code.
    expect(await first.closed).toBe(4003);

    // Reconnecting without a boot does not carry the old acceptance over.
    const second = await rawConnection(chargePointId, PILE_PASSWORD);
    const status = { connectorId: 1, errorCode: 'NoError', status: 'Available' };
    const refused = await second.call('StatusNotification', status);
    expect(refused[0]).toBe(4);
    expect(refused[2]).toBe('SecurityError');

    // Enabled again: the live connection regains the acceptance of the pile's last boot, in place.
    await post('/api/pile/batch/enable', { ids: [id] }, 201);
    await eventually(async () => expect((await second.call('StatusNotification', status))[0]).toBe(3));

    // Disabled again: closed; a boot on the next connection is Rejected, and accepted once enabled.
    await post('/api/pile/batch/disable', { ids: [id] }, 201);
    expect(await second.closed).toBe(4003);
    const third = await rawConnection(chargePointId, PILE_PASSWORD);
    expect((await third.call('BootNotification', BOOT))[2]).toMatchObject({ status: 'Rejected' });
    expect((await third.call('StatusNotification', status))[2]).toBe('SecurityError');
    await post('/api/pile/batch/enable', { ids: [id] }, 201);
    await eventually(async () =>
      expect((await third.call('BootNotification', BOOT))[2]).toMatchObject({ status: 'Accepted' }),
    );
    expect((await third.call('StatusNotification', status))[0]).toBe(3);
    third.close();
  });

  it('a new OCPP password closes the live connection: the old one is refused, the new one admitted', async () => {
    const created = await post('/api/pile', aPile(stationId, { deviceStatus: 50 }));
    const id = Number(created['id']);
    const chargePointId = String(created['chargePointId']);
    await eventually(async () => expect(await handshakeStatus(chargePointId, PILE_PASSWORD)).toBe(101));
    const connection = await rawConnection(chargePointId, PILE_PASSWORD);
    expect((await connection.call('BootNotification', BOOT))[2]).toMatchObject({ status: 'Accepted' });

    const newPassword = 'rotated-secret-0123456789';
    const body = { ...aPile(stationId), number: created['number'], chargePointId, ocppPassword: newPassword };
    await t.http().put(`/api/pile/${id}`).set(admin).send(body).expect(200);
    expect(await connection.closed).toBe(4003);
    expect(await handshakeStatus(chargePointId, PILE_PASSWORD)).toBe(401);
    expect(await handshakeStatus(chargePointId, newPassword)).toBe(101);
  });

  it('a host whose password was stored as argon2 before the keyed hash: re-stored once, and later edits keep it and the connection', async () => {
    const created = await post('/api/pile', aPile(stationId, { deviceStatus: 50 }));
    const id = Number(created['id']);
    const chargePointId = String(created['chargePointId']);
    // Both copies as the api stored them before: the assets' own and the gateway's registry.
    const legacy = await argon2.hash(PILE_PASSWORD, { type: argon2.argon2id });
    await t.db.dataSource.transaction(async (m) => {
      await m.query('UPDATE charging_pile SET ocpp_password_hash = $2 WHERE id = $1', [id, legacy]);
      await m.query(`SELECT gateway_register_pile($1, 'active', $2)`, [chargePointId, legacy]);
    });
    const registryHash = async (): Promise<string> =>
      (
        await t.db.dataSource.query('SELECT password_hash FROM pile_registry WHERE charge_point_id = $1', [
          chargePointId,
        ])
      )[0].password_hash;
    // Admitted (once the gateway has polled the argon2 row, by verifying it), and stored again.
    await eventually(async () => {
      expect(await handshakeStatus(chargePointId, PILE_PASSWORD)).toBe(101);
      expect(passwords.formOf(await registryHash())).toBe('current');
    });
    const restored = await registryHash();
    const connection = await rawConnection(chargePointId, PILE_PASSWORD);
    expect((await connection.call('BootNotification', BOOT))[2]).toMatchObject({ status: 'Accepted' });

    // Saving the host registers the assets' argon2 copy again: the same password, so the registry keeps
    // its keyed hash, and the gateway does not take it for new credentials.
    const body = { ...aPile(stationId), number: created['number'], chargePointId, name: 'Renamed host' };
    delete (body as Body)['ocppPassword'];
    await t.http().put(`/api/pile/${id}`).set(admin).send(body).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // several registry refreshes
    expect(await registryHash()).toBe(restored);
    expect((await connection.call('Heartbeat', {}))[0]).toBe(3);
    connection.close();
    // A new password still replaces it.
    await t
      .http()
      .put(`/api/pile/${id}`)
      .set(admin)
      .send({ ...body, ocppPassword: 'brand-new-secret-0123456' })
      .expect(200);
    expect(await registryHash()).not.toBe(restored);
    expect((await passwords.verify(await registryHash(), 'brand-new-secret-0123456')).match).toBe(true);
  });

  it.each([
    [{}, 400, 'Validation failed: ids: At least one host must be selected'],
    [{ ids: [] }, 400, 'Validation failed: ids: At least one host must be selected'],
    [{ ids: 'all' }, 400, 'Validation failed: ids: At least one host must be selected'],
    [{ ids: [999999] }, 404, 'Charging host 999999 does not exist'],
  ])('batch enable %j -> %s', async (body, status, message) => {
    const res = await t.http().post('/api/pile/batch/enable').set(admin).send(body).expect(status);
    expect(res.body.message).toBe(message);
  });

  it('an unknown pile is listed, registered in one click, boots Pending, then Accepted once enabled', async () => {
    const chargePointId = unique('NEW-');
    expect(await handshakeStatus(chargePointId, 'whatever-password-123')).toBe(401);
    const unknown = await eventually(async () => {
      const page = (await t.http().get('/api/pile/unknown/page/1/size/50').set(admin).expect(200)).body;
      const found = page.list.find((u: Body) => u['chargePointId'] === chargePointId);
      expect(found).toBeDefined();
      return found as Body;
    });
    expect(unknown).toMatchObject({ attempts: 1, remoteAddresses: ['127.0.0.1'] });

    const missing = await t
      .http()
      .post('/api/pile/unknown/NEVER-SEEN/register')
      .set(admin)
      .send({})
      .expect(404);
    expect(errorOf(missing.body, 'UNKNOWN_PILE_NOT_FOUND').message).toBe(
      "No unknown connection attempt from charge point 'NEVER-SEEN'",
    );

    const registered = await post(`/api/pile/unknown/${chargePointId}/register`, { stationId });
    const pileView = registered['pile'] as Body;
    expect(pileView).toMatchObject({ chargePointId, deviceStatus: 1, gatewayState: 'pending', stationId });
    expect(String(registered['ocppPassword'])).toHaveLength(24);
    const page = (await t.http().get('/api/pile/unknown/page/1/size/50').set(admin).expect(200)).body;
    expect(page.list.map((u: Body) => u['chargePointId'])).not.toContain(chargePointId);

    // The gateway remembers a miss briefly and picks the new row up on its next registry refresh.
    const password = String(registered['ocppPassword']);
    await eventually(async () => expect(await handshakeStatus(chargePointId, password)).toBe(101));
    const pile = simulatedPile(chargePointId, password);
    const boots: string[] = [];
    pile.on('boot', (status: string) => boots.push(status));
    const started = pile.start();
    await eventually(() => expect(boots).toContain('Pending'));
    await post('/api/pile/batch/enable', { ids: [pileView['id']] });
    await started;
    expect(pile.registrationStatus).toBe('Accepted');
  });

  it('cards: a new card is Accepted by Authorize, a lost one Blocked, a deleted one Invalid', async () => {
    const host = await post('/api/pile', aPile(stationId));
    const pile = simulatedPile(String(host['chargePointId']), PILE_PASSWORD);
    await pile.start();
    const authorize = async (idTag: string) =>
      (await pile.call<{ idTagInfo: { status: string; expiryDate?: string } }>('Authorize', { idTag }))
        .idTagInfo;

    const expiry = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const card = await post('/api/card', aCard({ expiryDate: expiry }));
    const idTag = String(card['physicalNumber']);
    expect(await authorize(idTag)).toEqual({ status: 'Accepted', expiryDate: expiry });

    const body = { ...aCard(), physicalNumber: idTag, selfNumber: card['selfNumber'], expiryDate: expiry };
    for (const [status, expected] of [
      ['lost', 'Blocked'],
      ['normal', 'Accepted'],
      ['cancelled', 'Blocked'],
      ['invalid', 'Invalid'],
    ]) {
      await t
        .http()
        .put(`/api/card/${card['id']}`)
        .set(admin)
        .send({ ...body, status })
        .expect(200);
      expect((await authorize(idTag)).status).toBe(expected);
    }
    await t.http().delete(`/api/card/${card['id']}`).set(admin).expect(204);
    expect((await authorize(idTag)).status).toBe('Invalid');

    const expired = await post('/api/card', aCard({ expiryDate: new Date(Date.now() - 1000).toISOString() }));
    expect((await authorize(String(expired['physicalNumber']))).status).toBe('Expired');
  });

  it('deleting a host deletes its guns, and the gateway turns its pile away', async () => {
    const host = await post('/api/pile', aPile(stationId, { gunCount: 2 }));
    for (const channelNumber of [1, 2]) {
      await post('/api/gun', {
        pileId: host['id'],
        name: `Gun ${channelNumber}`,
        channelNumber,
        qrCode: unique('QR'),
        connectorType: 1,
      });
    }
    const chargePointId = String(host['chargePointId']);
    expect(await handshakeStatus(chargePointId, PILE_PASSWORD)).toBe(101);
    await t.http().delete(`/api/pile/${host['id']}`).set(admin).expect(204);
    const guns = (await t.http().get(`/api/gun/page/1/size/50?pileId=${host['id']}`).set(admin).expect(200))
      .body;
    expect(guns).toEqual({ list: [], total: 0 });
    await eventually(async () => expect(await handshakeStatus(chargePointId, PILE_PASSWORD)).toBe(401));
  });

  it('renaming a host’s charge point id retires the old identity', async () => {
    const host = await post('/api/pile', aPile(stationId));
    const oldId = String(host['chargePointId']);
    const newId = unique('REN-');
    const body = { ...aPile(stationId), number: host['number'], chargePointId: newId };
    await t.http().put(`/api/pile/${host['id']}`).set(admin).send(body).expect(200);
    await eventually(async () => expect(await handshakeStatus(oldId, PILE_PASSWORD)).toBe(401));
    expect(await handshakeStatus(newId, PILE_PASSWORD)).toBe(101);
  });
});
