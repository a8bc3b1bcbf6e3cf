import { RPCClient } from 'ocpp-rpc';
import request from 'supertest';
import { SimulatedPile } from '@voltdepot/server-ocpp-simulator';
import { eventually, type TestDatabase } from '@voltdepot/server-testing';
import { pilePasswordHasherOf } from '@voltdepot/server-pile-credentials';
import { startGatewayHttpApp, type GatewayHttpApp } from '../testing/fixtures/gateway-http-app';

let gateway: GatewayHttpApp;
let db: TestDatabase;
let app: GatewayHttpApp['app'];
let pile: SimulatedPile;
let silentPile: RPCClient;
let operatorToken: string;
let adminToken: string;
let nobodyToken: string;

async function addPile(chargePointId: string, database = db): Promise<string> {
  const password = `pw-${chargePointId}-secret`;
  await database.dataSource.query(
    `INSERT INTO pile_registry (charge_point_id, state, password_hash) VALUES ($1, 'active', $2)`,
    [chargePointId, pilePasswordHasherOf({}).hasher.hash(password)],
  );
  return password;
}

const http = () => request(app.getHttpServer());
const command = (chargePointId: string, action: string, token = operatorToken) =>
  http().post(`/api/pile/${chargePointId}/command/${action}`).set('authorization', `Bearer ${token}`);

beforeAll(async () => {
  let pilePassword = '';
  let silentPassword = '';
  gateway = await startGatewayHttpApp({
    env: { OCPP_REGISTRY_REFRESH_MS: '200', OCPP_ID_TAG_CACHE_MS: '0' },
    seed: async (seeded) => {
      pilePassword = await addPile('HTTP-1', seeded);
      silentPassword = await addPile('HTTP-SILENT', seeded);
      await seeded.dataSource.query(`INSERT INTO id_tag (id_tag, status) VALUES ('BUS-HTTP', 'Accepted')`);
    },
  });
  ({ db, app } = gateway);

  pile = new SimulatedPile({
    url: gateway.ocppUrl,
    chargePointId: 'HTTP-1',
    password: pilePassword,
    connectors: 2,
    meterIntervalMs: 100,
    timeScale: 60,
    reconnectDelayMs: 100,
  });
  await pile.start();
  // A pile that takes every command and never answers it (for the time-out).
  silentPile = new RPCClient({
    endpoint: gateway.ocppUrl,
    identity: 'HTTP-SILENT',
    password: silentPassword,
    protocols: ['ocpp1.6'],
    strictMode: true,
    reconnect: false,
  } as ConstructorParameters<typeof RPCClient>[0]);
  silentPile.handle('GetConfiguration', () => new Promise(() => undefined));
  await silentPile.connect();
  await silentPile.call('BootNotification', { chargePointVendor: 'V', chargePointModel: 'Silent' });

  operatorToken = await gateway.tokenFor('operator');
  adminToken = await gateway.tokenFor('admin');
  // The fleet manager reads monitoring but sends no commands (the maintainer does: it resets piles).
  nobodyToken = await gateway.tokenFor('fleet_manager');
});

afterAll(async () => {
  await pile?.stop();
  await silentPile?.close({ force: true }).catch(() => undefined);
  await gateway?.close();
});

describe('POST /api/pile/{chargePointId}/command/{action}', () => {
  it('401 without a token, with the standard error body', async () => {
    const res = await http().post('/api/pile/HTTP-1/command/Reset').send({ type: 'Soft' }).expect(401);
    expect(res.body).toEqual({
      code: 'AUTH_TOKEN_MISSING',
      message: expect.any(String),
      correlationId: res.headers['x-correlation-id'],
    });
  });

  it('403 for a user without pile:command; nothing is sent', async () => {
    const res = await command('HTTP-1', 'Reset', nobodyToken).send({ type: 'Soft' }).expect(403);
    expect(res.body).toMatchObject({ code: 'FORBIDDEN', details: { missing: ['pile:command'] } });
    const [{ n }] = await db.dataSource.query(`SELECT count(*)::int AS n FROM pile_command`);
    expect(n).toBe(0);
  });

  it('RemoteStartTransaction starts a charging session on the pile (operator)', async () => {
    const res = await command('HTTP-1', 'RemoteStartTransaction')
      .send({ connectorId: 1, idTag: 'BUS-HTTP' })
      .expect(200);
    expect(res.body).toEqual({ status: 'completed', response: { status: 'Accepted' } });
    const session = await eventually(() => {
      const s = pile.activeSession(1);
      if (!s?.transactionId) throw new Error('not started');
      return s;
    });
    await eventually(async () => {
      const rows = (await db.dataSource.query(
        `SELECT id_tag, connector_id FROM ocpp_transaction WHERE transaction_id = $1`,
        [session.transactionId],
      )) as unknown[];
      expect(rows).toEqual([{ id_tag: 'BUS-HTTP', connector_id: 1 }]);
    });
    const stop = await command('HTTP-1', 'RemoteStopTransaction', adminToken)
      .send({ transactionId: session.transactionId })
      .expect(200);
    expect(stop.body.response).toEqual({ status: 'Accepted' });
    await eventually(() => expect(session.reason).toBe('Remote'));
  });

  it('Reset: the pile accepts, drops the connection and boots again', async () => {
    const rebooted = new Promise<string>((resolve) => pile.once('boot', resolve));
    const res = await command('HTTP-1', 'Reset').send({ type: 'Soft', timeoutMs: 5000 }).expect(200);
    expect(res.body).toEqual({ status: 'completed', response: { status: 'Accepted' } });
    expect(await rebooted).toBe('Accepted');
    await eventually(() => expect(pile.online).toBe(true));
  });

  it('an unknown action is a 400 naming the valid actions', async () => {
    const res = await command('HTTP-1', 'Fly').send({}).expect(400);
    expect(res.body).toMatchObject({ code: 'OCPP_COMMAND_INVALID', correlationId: expect.any(String) });
    expect(res.body.message).toContain('RemoteStartTransaction');
    expect(res.body.details.validActions).toContain('Reset');
  });

  it.each([
    ['a value outside the enum', 'Reset', { type: 'Gentle' }, 'enum'],
    ['a missing required field', 'RemoteStartTransaction', { connectorId: 1 }, 'required'],
    ['a wrong type', 'UnlockConnector', { connectorId: 'one' }, 'type'],
  ])('bad parameters (%s) are a 400 with the schema error', async (_what, action, body, keyword) => {
    const res = await command('HTTP-1', action).send(body).expect(400);
    expect(res.body).toMatchObject({ code: 'OCPP_COMMAND_INVALID' });
    expect(res.body.details.errors[0]).toMatchObject({ keyword });
  });

  it.each([
    ['a NUL character in the pile id', 'HTTP%00X', 'Reset', { type: 'Soft' }, 'chargePointId'],
    ['a space in the pile id', 'HTTP%201', 'Reset', { type: 'Soft' }, 'chargePointId'],
    [
      'a NUL character in a parameter',
      'HTTP-1',
      'DataTransfer',
      { vendorId: 'Voltdepot', data: 'a\u0000b' },
      'data: must not contain a NUL character',
    ],
  ])('%s is a 400, and nothing is journalled', async (_what, chargePointId, action, body, named) => {
    const before = await db.dataSource.query(`SELECT count(*)::int AS n FROM pile_command`);
    const res = await command(chargePointId, action).send(body).expect(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(JSON.stringify(res.body)).toContain(named);
    expect(await db.dataSource.query(`SELECT count(*)::int AS n FROM pile_command`)).toEqual(before);
  });

  it('a bad timeoutMs is a 400 naming the field', async () => {
    const res = await command('HTTP-1', 'Reset').send({ type: 'Soft', timeoutMs: 5 }).expect(400);
    expect(JSON.stringify(res.body)).toContain('timeoutMs');
  });

  it('an offline pile is a 409 at once', async () => {
    await addPile('HTTP-OFF');
    const started = Date.now();
    const res = await command('HTTP-OFF', 'Reset').send({ type: 'Soft' }).expect(409);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(res.body).toMatchObject({
      code: 'OCPP_PILE_OFFLINE',
      message: expect.stringContaining('HTTP-OFF'),
    });
  });

  it('a pile that does not answer within timeoutMs is a 504', async () => {
    const res = await command('HTTP-SILENT', 'GetConfiguration').send({ timeoutMs: 300 }).expect(504);
    expect(res.body).toMatchObject({ code: 'OCPP_COMMAND_TIMEOUT' });
  });
});

describe('GET /api/pile/{chargePointId}/commands/page/{page}/size/{size}', () => {
  it('pages the pile_command journal, newest first', async () => {
    const res = await http()
      .get('/api/pile/HTTP-1/commands/page/1/size/2')
      .set('authorization', `Bearer ${operatorToken}`)
      .expect(200);
    expect(res.body.total).toBe(3);
    expect(res.body.list).toEqual([
      expect.objectContaining({ action: 'Reset', status: 'completed', params: { type: 'Soft' } }),
      expect.objectContaining({ action: 'RemoteStopTransaction', status: 'completed' }),
    ]);
    const second = await http()
      .get('/api/pile/HTTP-1/commands/page/2/size/2')
      .set('authorization', `Bearer ${operatorToken}`)
      .expect(200);
    expect(second.body.list).toEqual([
      expect.objectContaining({
        action: 'RemoteStartTransaction',
        chargePointId: 'HTTP-1',
        response: { status: 'Accepted' },
        requestedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      }),
    ]);
    const timedOut = await http()
      .get('/api/pile/HTTP-SILENT/commands/page/1/size/10')
      .set('authorization', `Bearer ${operatorToken}`)
      .expect(200);
    expect(timedOut.body.list).toEqual([expect.objectContaining({ status: 'timeout' })]);
  });

  it('403 without the permission, 400 for a bad page or pile id', async () => {
    await http()
      .get('/api/pile/HTTP-1/commands/page/1/size/10')
      .set('authorization', `Bearer ${nobodyToken}`)
      .expect(403);
    for (const path of [
      '/api/pile/HTTP-1/commands/page/0/size/10',
      '/api/pile/HTTP-1/commands/page/100000000000000000000/size/10',
      '/api/pile/A%00B/commands/page/1/size/10',
    ])
      await http().get(path).set('authorization', `Bearer ${operatorToken}`).expect(400);
  });
});
