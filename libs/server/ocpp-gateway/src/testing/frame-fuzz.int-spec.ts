import { randomUUID } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import request from 'supertest';
import { RPCClient } from 'ocpp-rpc';
import WebSocket from 'ws';
import { SimulatedPile } from '@voltdepot/server-ocpp-simulator';
import {
  createTestDatabase,
  eventually,
  spawnTs,
  testEnv,
  type TestDatabase,
  type TsProcess,
} from '@voltdepot/server-testing';
import { pilePasswordHasherFromEnv } from '@voltdepot/server-pile-credentials';

/**
 * Fuzzing the OCPP endpoint of the real gateway process (apps/ocpp-gateway/src/main.ts in a child
 * process, as deployed: its own handlers for uncaught exceptions and unhandled rejections end it with
 * exit code 1). Raw WebSocket clients with valid credentials send bad JSON, wrong types, unknown
 * actions, wrong message type ids, answers to calls never made, frames over 64 KiB, floods and calls
 * in flight at once, while a well-behaved simulated pile keeps charging. The process must answer each
 * frame correctly or close the connection with the right code, and come out healthy: still running,
 * /health up, nothing fatal logged, a fresh pile able to boot and charge.
 */

const MAX_BAD_MESSAGES = 10;
const MAX_QUEUED_CALLS = 5;
const LIMIT = 64 * 1024;
const PASSWORD = 'fuzz-pile-secret';

let db: TestDatabase;
let gateway: TsProcess;
let httpPort: number;
let ocppPort: number;
let good: SimulatedPile;
const prefix = `vdfz${randomUUID().slice(0, 6)}`;
const sockets: WebSocket[] = [];

/** A seeded PRNG (mulberry32), so a failing run can be replayed with FUZZ_SEED. */
const seed = Number(process.env['FUZZ_SEED'] ?? Date.now() % 100_000);
let state = seed;
function random(): number {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function registerPile(chargePointId: string, booted = true): Promise<void> {
  await db.dataSource.query(
    `INSERT INTO pile_registry (charge_point_id, state, password_hash) VALUES ($1, 'active', $2)`,
    [chargePointId, pilePasswordHasherFromEnv().hash(PASSWORD)],
  );
  if (booted)
    await db.dataSource.query(
      `INSERT INTO ocpp_pile_boot (charge_point_id, registration_status, booted_at) VALUES ($1, 'Accepted', now())`,
      [chargePointId],
    );
}

type Raw = {
  ws: WebSocket;
  frames: string[];
  closed: Promise<{ code: number; reason: string }>;
  errors: Error[];
};

/** A raw WebSocket of a registered pile (valid credentials); resolves once open. */
async function raw(chargePointId: string): Promise<Raw> {
  const ws = new WebSocket(`ws://127.0.0.1:${ocppPort}/ocpp/${chargePointId}`, ['ocpp1.6'], {
    headers: { authorization: `Basic ${Buffer.from(`${chargePointId}:${PASSWORD}`).toString('base64')}` },
  });
  sockets.push(ws);
  const frames: string[] = [];
  const errors: Error[] = [];
  // For the whole life of the socket: an 'error' without a listener would end this test process.
  ws.on('error', (error) => errors.push(error));
  ws.on('message', (data: Buffer) => frames.push(data.toString()));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake ${res.statusCode}`)));
    void closed.then(() => reject(new Error('closed before open')));
  });
  return { ws, frames, closed, errors };
}

const send = (ws: WebSocket, data: string | Buffer) => {
  if (ws.readyState === WebSocket.OPEN) ws.send(data);
};
const parsed = (frames: string[]) => frames.map((f) => JSON.parse(f) as unknown[]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const oversize = () => `[2,"big","DataTransfer",{"vendorId":"x","data":"${'y'.repeat(LIMIT + 10)}"}]`;
const heartbeat = (id: string) => JSON.stringify([2, id, 'Heartbeat', {}]);

/** Log lines of the gateway (pino JSON on stdout) at fatal level or about an escaped error. */
function fatalLines(): string[] {
  return gateway.lines.filter((line) => {
    try {
      const entry = JSON.parse(line) as { level?: number | string; msg?: string };
      return (
        entry.level === 60 ||
        entry.level === 'fatal' ||
        /uncaught exception|unhandled promise rejection/.test(entry.msg ?? '')
      );
    } catch {
      return /RangeError|Unhandled|uncaught/i.test(line);
    }
  });
}

/** The process is alive and nothing escaped; checked after every scenario. */
function expectAlive(): void {
  expect(fatalLines()).toEqual([]);
  expect(gateway.child.exitCode).toBeNull();
  expect(gateway.child.signalCode).toBeNull();
}

beforeAll(async () => {
  db = await createTestDatabase();
  [httpPort, ocppPort] = [await freePort(), await freePort()];
  await db.dataSource.query(`INSERT INTO id_tag (id_tag, status) VALUES ('BUS-FUZZ', 'Accepted')`);
  for (const id of ['FUZZ-GOOD', 'FUZZ-RACE', 'FUZZ-OVER', 'FUZZ-FLOOD', 'FUZZ-MIXED', 'FUZZ-SCHEMA'])
    await registerPile(id);
  for (let i = 0; i < 4; i++) await registerPile(`FUZZ-CHAOS-${i}`);
  await registerPile('FUZZ-INFLIGHT');
  await registerPile('FUZZ-FRESH', false);
  gateway = spawnTs('apps/ocpp-gateway/src/main.ts', {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: db.url,
    REDIS_URL: testEnv().redisUrl,
    BUS_PREFIX: prefix,
    PORT: String(httpPort),
    OCPP_PORT: String(ocppPort),
    OCPP_HOST: '127.0.0.1',
    OCPP_REDIS_PREFIX: prefix,
    OCPP_MAX_BAD_MESSAGES: String(MAX_BAD_MESSAGES),
    OCPP_MAX_QUEUED_CALLS: String(MAX_QUEUED_CALLS),
    JWT_SECRET: 'fuzz-test-secret-0123456789abcdefghij',
    AUTH_REDIS_KEY_PREFIX: `${prefix}:auth:`,
  });
  await gateway.waitForLine(/OCPP gateway listening/, 90_000);
  await gateway.waitForLine(/"msg":"listening"/, 30_000);

  // The well-behaved pile charges through everything below.
  good = new SimulatedPile({
    url: `ws://127.0.0.1:${ocppPort}/ocpp`,
    chargePointId: 'FUZZ-GOOD',
    password: PASSWORD,
    connectors: 1,
    meterIntervalMs: 100,
    timeScale: 60,
    reconnectDelayMs: 200,
  });
  await good.start();
  await good.startSession(1, 'BUS-FUZZ', { startSoc: 10, targetSoc: 99, autoStop: false });
}, 150_000);

afterAll(async () => {
  for (const ws of sockets) ws.terminate();
  await good?.stop();
  await gateway?.kill('SIGTERM');
  await db?.drop();
});

describe(`OCPP frame fuzz against the gateway process (seed ${seed})`, () => {
  it('answers every kind of bad frame with the right CallError, or none, and keeps the connection', async () => {
    const cases: [string, string | Buffer, string | null][] = [
      ['bad JSON', '{"not": json', 'RpcFrameworkError'],
      ['not an array', '"a string"', 'RpcFrameworkError'],
      ['message type as string', '["2","m1","Heartbeat",{}]', 'RpcFrameworkError'],
      ['message type 0', '[0,"m2","Heartbeat",{}]', 'MessageTypeNotSupported'],
      ['message type 5', '[5,"m3","Heartbeat",{}]', 'MessageTypeNotSupported'],
      ['message id a number', '[2,17,"Heartbeat",{}]', 'RpcFrameworkError'],
      ['action a number', '[2,"m4",42,{}]', 'RpcFrameworkError'],
      ['unknown action', '[2,"m5","OpenThePodBayDoors",{}]', 'NotImplemented'],
      ['central-system action from a pile', '[2,"m6","Reset",{"type":"Hard"}]', 'NotImplemented'],
      ['wrong type', '[2,"m7","MeterValues",{"connectorId":"1","meterValue":[]}]', 'TypeConstraintViolation'],
      ['payload not an object', '[2,"m8","Heartbeat",[]]', 'TypeConstraintViolation'],
      ['CALLRESULT for an unknown id', '[3,"never-asked",{}]', null],
      ['CALLERROR for an unknown id', '[4,"never-asked","GenericError","",{}]', null],
      ['binary garbage', Buffer.from([0xff, 0xfe, 0x00, 0x01]), 'RpcFrameworkError'],
      // Schema-valid, but not storable: a clear CallError, not an InternalError.
      [
        'integer beyond 32 bits',
        '[2,"m9","StatusNotification",{"connectorId":3000000000,"errorCode":"NoError","status":"Available"}]',
        'PropertyConstraintViolation',
      ],
      // A transaction id beyond 32 bits is no error: the stop is quarantined (never refused).
      [
        'stop of a transaction id beyond 32 bits',
        '[2,"m9b","StopTransaction",{"transactionId":3000000000,"meterStop":1,"timestamp":"2026-01-01T00:00:00Z"}]',
        null,
      ],
      ['NUL in an idTag', '[2,"m10","Authorize",{"idTag":"BUS\\u0000FUZZ"}]', 'PropertyConstraintViolation'],
      // JSON can escape an unpaired UTF-16 surrogate; PostgreSQL refuses it in text and jsonb.
      [
        'unpaired surrogate in an idTag',
        '[2,"m15","StartTransaction",{"connectorId":1,"idTag":"BUS\\ud800","meterStart":0,"timestamp":"2026-01-01T00:00:00Z"}]',
        'PropertyConstraintViolation',
      ],
      // A message id is only kept (in the correlation id): made storable, and the samples are recorded.
      [
        'unpaired surrogate in a message id',
        '[2,"m16\\udc00","MeterValues",{"connectorId":1,"meterValue":[{"timestamp":"2026-01-01T00:00:01Z","sampledValue":[{"value":"1"}]}]}]',
        null,
      ],
      [
        'a transaction on connector 0',
        '[2,"m13","StartTransaction",{"connectorId":0,"idTag":"BUS-FUZZ","meterStart":0,"timestamp":"2026-01-01T00:00:00Z"}]',
        'PropertyConstraintViolation',
      ],
      [
        'a transaction on a negative connector',
        '[2,"m14","StartTransaction",{"connectorId":-1,"idTag":"BUS-FUZZ","meterStart":0,"timestamp":"2026-01-01T00:00:00Z"}]',
        'PropertyConstraintViolation',
      ],
      [
        'timestamp in year 0',
        '[2,"m11","StartTransaction",{"connectorId":1,"idTag":"BUS-FUZZ","meterStart":0,"timestamp":"0000-01-01T00:00:00Z"}]',
        'PropertyConstraintViolation',
      ],
      [
        'leap second',
        '[2,"m12","MeterValues",{"connectorId":1,"meterValue":[{"timestamp":"2016-12-31T23:59:60Z","sampledValue":[{"value":"1"}]}]}]',
        'PropertyConstraintViolation',
      ],
    ];
    // A fresh connection every few cases keeps each under the bad-message limit (tested below).
    for (let first = 0; first < cases.length; first += MAX_BAD_MESSAGES - 2) {
      const { ws, frames } = await raw('FUZZ-MIXED');
      for (const [name, frame, code] of cases.slice(first, first + MAX_BAD_MESSAGES - 2)) {
        frames.length = 0;
        send(ws, frame);
        send(ws, heartbeat(`after-${name}`));
        // Answered in order: the bad frame's CallError (if it gets one), then the heartbeat.
        const replies = await eventually(() => {
          const all = parsed(frames);
          if (!all.some((f) => f[1] === `after-${name}`)) throw new Error(`no heartbeat after ${name}`);
          return all;
        });
        const errors = replies.filter((f) => f[0] === 4).map((f) => f[2]);
        expect([name, errors]).toEqual([name, code === null ? [] : [code]]);
        expect(ws.readyState).toBe(WebSocket.OPEN);
      }
      ws.close();
    }
    expectAlive();
  });

  it('closes a connection that sends a frame over 64 KiB with 1009, and only that one', async () => {
    const { ws, closed } = await raw('FUZZ-OVER');
    send(ws, oversize());
    expect((await closed).code).toBe(1009);
    const next = await raw('FUZZ-OVER');
    send(next.ws, heartbeat('hb'));
    await eventually(() => expect(parsed(next.frames)).toEqual([[3, 'hb', expect.anything()]]));
    next.ws.close();
    expectAlive();
  });

  it('closes a flood of garbage with 1002 after at most the allowed number of bad messages', async () => {
    const { ws, frames, closed } = await raw('FUZZ-FLOOD');
    for (let i = 0; i < 200; i++) send(ws, `garbage ${i}`);
    expect((await closed).code).toBe(1002);
    expect(frames.length).toBeLessThanOrEqual(MAX_BAD_MESSAGES);
    expectAlive();
  });

  it('closes a pile that keeps mixing bad frames into good ones (bounded over a window, not only in a row)', async () => {
    const { ws, frames, closed } = await raw('FUZZ-FLOOD');
    let isClosed = false;
    void closed.then(() => (isClosed = true));
    let rounds = 0;
    // Garbage, then a good call whose answer it waits for (so the good calls keep resetting
    // ocpp-rpc's count of bad frames in a row), until the gateway has had enough.
    while (!isClosed && rounds < 50) {
      const id = `ok-${rounds++}`;
      send(ws, 'garbage');
      send(ws, heartbeat(id));
      await eventually(() => {
        if (!isClosed && !parsed(frames).some((f) => f[1] === id)) throw new Error('no answer yet');
      });
    }
    expect((await closed).code).toBe(1002);
    const replies = parsed(frames);
    expect(replies.filter((f) => f[0] === 4).length).toBeLessThanOrEqual(MAX_BAD_MESSAGES);
    expect(replies.filter((f) => f[0] === 3).length).toBeLessThanOrEqual(MAX_BAD_MESSAGES);
    expect(rounds).toBeLessThanOrEqual(MAX_BAD_MESSAGES + 1);
    expectAlive();
  });

  it('closes a pile flooding well-formed calls the gateway must refuse (schema violations)', async () => {
    const { ws, closed } = await raw('FUZZ-SCHEMA');
    for (let i = 0; i < 50; i++)
      send(ws, JSON.stringify([2, `s${i}`, 'StatusNotification', { connectorId: -1, status: 'Dancing' }]));
    expect((await closed).code).toBe(1002);
    expectAlive();
  });

  it(`answers up to ${MAX_QUEUED_CALLS} calls in flight in order, and refuses more`, async () => {
    const { ws, frames } = await raw('FUZZ-INFLIGHT');
    for (let i = 0; i < 3; i++) send(ws, heartbeat(`a${i}`));
    await eventually(() => expect(frames).toHaveLength(3));
    expect(parsed(frames).map((f) => [f[0], f[1]])).toEqual([
      [3, 'a0'],
      [3, 'a1'],
      [3, 'a2'],
    ]);
    frames.length = 0;
    const count = MAX_QUEUED_CALLS + 3;
    // In one TCP write, so that all of them are in flight before the first is answered.
    const socket = (ws as unknown as { _socket: Socket })._socket;
    socket.cork();
    for (let i = 0; i < count; i++) send(ws, heartbeat(`b${i}`));
    socket.uncork();
    await eventually(() => expect(frames).toHaveLength(count));
    const replies = parsed(frames);
    const answered = replies.filter((f) => f[0] === 3).map((f) => f[1]);
    const refused = replies.filter((f) => f[0] === 4);
    expect(answered).toEqual(Array.from({ length: MAX_QUEUED_CALLS }, (_, i) => `b${i}`));
    expect(refused.map((f) => [f[1], f[2]])).toEqual(
      Array.from({ length: count - MAX_QUEUED_CALLS }, (_, i) => [
        `b${MAX_QUEUED_CALLS + i}`,
        'GenericError',
      ]),
    );
    ws.close();
    expectAlive();
  });

  it('survives frames over 64 KiB sent while the gateway is already closing the connection', async () => {
    // The cause of "RangeError: Max payload size exceeded" escaping: ws emits 'error' on a socket that
    // ocpp-rpc is closing, and its close() promise rejects with nobody to catch it. Two ways in: a
    // flood of bad frames (the gateway closes) followed at once by an oversize frame, and a replaced
    // connection that sends an oversize frame while being closed. Timing decides, so both are tried
    // with several delays.
    for (const delay of [0, 0, 1, 1, 2, 3, 5, 8]) {
      const { ws, closed } = await raw('FUZZ-RACE');
      for (let i = 0; i <= MAX_BAD_MESSAGES; i++) send(ws, 'garbage');
      if (delay) await sleep(delay);
      send(ws, oversize());
      // Never 4001 (replaced): the previous round's connection may finish registering after this one,
      // but the newer connection wins (session registry).
      expect([1002, 1009]).toContain((await closed).code);
    }
    for (const delay of [0, 0, 1, 2, 3, 5, 8, 13]) {
      const first = await raw('FUZZ-RACE');
      const second = raw('FUZZ-RACE');
      if (delay) await sleep(delay);
      send(first.ws, oversize());
      const replacement = await second;
      expect([4001, 1009]).toContain((await first.closed).code);
      replacement.ws.close();
    }
    await sleep(500);
    expectAlive();
  });

  it('survives a random mix of everything from several piles at once', async () => {
    const generators: (() => string | Buffer)[] = [
      () => pick(['{', '[', '[2', 'null', 'true', '[]', '[2,"x"]', '"\\u0000"', '{}']),
      () =>
        Buffer.from(Array.from({ length: 1 + Math.floor(random() * 64) }, () => Math.floor(random() * 256))),
      () => JSON.stringify([pick([-1, 0, 1, 2, 3, 4, 5, 2.5, '2', null]), `r${random()}`, 'Heartbeat', {}]),
      () => JSON.stringify([2, `r${random()}`, `Action${Math.floor(random() * 1000)}`, {}]),
      () =>
        JSON.stringify([
          2,
          `r${random()}`,
          pick(['BootNotification', 'StatusNotification', 'MeterValues', 'StartTransaction', 'Authorize']),
          pick([{}, { connectorId: 'x' }, { idTag: 12 }, { meterValue: 'none' }, [], null, 'str']),
        ]),
      () => JSON.stringify([pick([3, 4]), `r${random()}`, {}]),
      () => heartbeat(`r${random()}`),
      () =>
        JSON.stringify([
          2,
          `r${random()}`,
          'StatusNotification',
          { connectorId: 0, errorCode: 'NoError', status: 'Available' },
        ]),
      () => (random() < 0.3 ? oversize() : heartbeat(`r${random()}`)),
    ];
    const deadline = Date.now() + 8_000;
    const closeCodes: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async (_, p) => {
        while (Date.now() < deadline) {
          const { ws, closed, frames } = await raw(`FUZZ-CHAOS-${p}`);
          const done = closed.then(({ code }) => closeCodes.push(code));
          while (ws.readyState === WebSocket.OPEN && Date.now() < deadline) {
            const burst = 1 + Math.floor(random() * 5); // several calls in flight at times
            for (let i = 0; i < burst; i++) send(ws, pick(generators)());
            await sleep(Math.floor(random() * 20));
          }
          ws.close();
          await done;
          // Whatever the gateway sent back is a well-formed OCPP answer.
          for (const frame of parsed(frames)) expect([3, 4]).toContain(frame[0]);
        }
      }),
    );
    expect(closeCodes.some((code) => code === 1009 || code === 1002)).toBe(true);
    expect(closeCodes.every((code) => [1000, 1002, 1005, 1009].includes(code))).toBe(true);
    expectAlive();
  }, 60_000);

  it('ends healthy: /health up, the charging pile recorded in full, a fresh pile boots and charges', async () => {
    expectAlive();
    const health = await request(`http://127.0.0.1:${httpPort}`).get('/health').expect(200);
    expect(health.body).toMatchObject({ status: 'ok' });

    // The well-behaved pile kept charging throughout; everything it metered is stored once.
    const session = await good.stopSession(1, 'EVDisconnected');
    await good.drained(30_000);
    const [row] = await db.dataSource.query(
      'SELECT meter_start_wh::float8 AS meter_start_wh, meter_stop_wh::float8 AS meter_stop_wh, stop_reason FROM ocpp_transaction WHERE transaction_id = $1',
      [session.transactionId],
    );
    expect(row).toEqual({
      meter_start_wh: session.meterStartWh,
      meter_stop_wh: session.meterStopWh,
      stop_reason: 'EVDisconnected',
    });
    const [{ samples, flagged }] = await db.dataSource.query(
      `SELECT count(*)::int AS samples, count(flag)::int AS flagged FROM ocpp_meter_sample
        WHERE transaction_id = $1 AND measurand = 'Energy.Active.Import.Register'`,
      [session.transactionId],
    );
    // Every periodic reading, plus the stop's Transaction.End reading (readings also hold the start).
    expect(samples).toBe(session.readings.length - 1);
    expect(session.readings.length).toBeGreaterThan(20);
    expect(flagged).toBe(0);

    // A fresh pile: refused until it boots, then boots and runs a transaction.
    const fresh = new RPCClient({
      endpoint: `ws://127.0.0.1:${ocppPort}/ocpp`,
      identity: 'FUZZ-FRESH',
      password: PASSWORD,
      protocols: ['ocpp1.6'],
      strictMode: true,
      reconnect: false,
    } as ConstructorParameters<typeof RPCClient>[0]);
    await fresh.connect();
    try {
      await expect(fresh.call('Heartbeat', {})).rejects.toMatchObject({ rpcErrorCode: 'SecurityError' });
      expect(
        await fresh.call('BootNotification', { chargePointVendor: 'V', chargePointModel: 'M' }),
      ).toMatchObject({
        status: 'Accepted',
      });
      const start = (await fresh.call('StartTransaction', {
        connectorId: 1,
        idTag: 'BUS-FUZZ',
        meterStart: 100,
        timestamp: new Date().toISOString(),
      })) as { transactionId: number; idTagInfo: { status: string } };
      expect(start.idTagInfo.status).toBe('Accepted');
      expect(
        await fresh.call('StopTransaction', {
          transactionId: start.transactionId,
          meterStop: 2100,
          timestamp: new Date().toISOString(),
          reason: 'Local',
        }),
      ).toEqual({});
      const [stored] = await db.dataSource.query(
        'SELECT (meter_stop_wh - meter_start_wh)::float8 AS energy FROM ocpp_transaction WHERE transaction_id = $1',
        [start.transactionId],
      );
      expect(stored).toEqual({ energy: 2000 });
    } finally {
      await fresh.close({ force: true });
    }

    // What the fuzzing did is visible on /metrics.
    const metrics = (await request(`http://127.0.0.1:${httpPort}`).get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/voltdepot_ocpp_bad_message_closes_total\{[^}]*\} [1-9]/);
    expect(metrics).toMatch(/voltdepot_ocpp_call_errors_total\{code="NotImplemented"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/voltdepot_ocpp_call_errors_total\{code="SecurityError"[^}]*\} [1-9]/);
    expectAlive();
  });
});
