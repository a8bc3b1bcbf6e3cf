import argon2 from 'argon2';
import { eventually } from '@voltdepot/server-testing';
import { bootRequest, GatewayTestHarness } from '../testing/fixtures/gateway-test-harness';
import type { PileSession } from './pile-session';
import { SessionRegistry } from './session-registry';

const h = new GatewayTestHarness();

beforeAll(() => h.start());
afterAll(() => h.stop());

describe('OCPP connection', () => {
  it('accepts a registered pile with the right password and records it in Redis and on the bus', async () => {
    const password = await h.addPile('CP-OK');
    const client = await h.connect('CP-OK', password);
    expect(client.protocol).toBe('ocpp1.6');
    const record = await eventually(async () => {
      const r = await h.gateway.sessions.lookup('CP-OK');
      if (!r) throw new Error('no connection record');
      return r;
    });
    expect(record.replicaId).toBe(h.gateway.replicaId);
    await h.waitForEvent('pile.connected', (p: { chargePointId: string }) => p.chargePointId === 'CP-OK');
    await client.close();
    await h.waitForEvent('pile.disconnected', (p: { chargePointId: string }) => p.chargePointId === 'CP-OK');
    await eventually(async () => expect(await h.gateway.sessions.lookup('CP-OK')).toBeUndefined());
  });

  it('refuses an unknown pile with 401 and records the attempt for the operator', async () => {
    expect(await h.handshakeStatus('CP-GHOST', 'whatever')).toBe(401);
    expect(await h.handshakeStatus('CP-GHOST', 'whatever')).toBe(401);
    const rows = await eventually(async () => {
      const found = await h.query<{ attempts: number; remote_address: string }>(
        `SELECT attempts, remote_address, first_seen_at <= last_seen_at AS ordered FROM unknown_pile_attempt WHERE charge_point_id = 'CP-GHOST'`,
      );
      expect(found[0]?.attempts).toBe(2);
      return found;
    });
    expect(rows).toEqual([
      expect.objectContaining({
        attempts: 2,
        remote_address: expect.stringMatching(/127\.0\.0\.1/),
        ordered: true,
      }),
    ]);
    expect(
      h.logs.filter((l) => l.msg === 'unknown pile rejected' && l['chargePointId'] === 'CP-GHOST'),
    ).toHaveLength(2);
  });

  it('rejects a wrong or missing password with 401 and logs it', async () => {
    await h.addPile('CP-PW');
    expect(await h.handshakeStatus('CP-PW', 'wrong-password')).toBe(401);
    expect(await h.handshakeStatus('CP-PW')).toBe(401);
    expect(
      h.logs.filter((l) => l.msg === 'pile authentication failed' && l['chargePointId'] === 'CP-PW'),
    ).toHaveLength(2);
  });

  it('answers an unknown id and a wrong password alike: same status, same body, same time', async () => {
    await h.addPile('CP-ALIKE');
    const unknown: { status: number; body: string; ms: number }[] = [];
    const wrong: { status: number; body: string; ms: number }[] = [];
    // Alternated, each unknown id new (a read-through to the database every time, the slower path).
    for (let i = 0; i < 5; i++) {
      unknown.push(await h.handshake(`CP-NOBODY-${i}`, 'wrong-password-0123456'));
      wrong.push(await h.handshake('CP-ALIKE', 'wrong-password-0123456'));
    }
    for (const answer of [...unknown, ...wrong]) {
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 401, body: 'Unauthorized' });
      // Not before the failure delay (200 ms), and quickly after it.
      expect(answer.ms).toBeGreaterThanOrEqual(195);
      expect(answer.ms).toBeLessThan(1_000);
    }
    const median = (answers: { ms: number }[]) => answers.map((a) => a.ms).sort((a, b) => a - b)[2];
    expect(Math.abs(median(unknown) - median(wrong))).toBeLessThan(50);
  });

  it('a pile whose password is still an argon2 hash connects, and its hash is stored again as a keyed hash', async () => {
    const password = 'legacy-pile-secret-0123';
    const legacy = await argon2.hash(password, { type: argon2.argon2id });
    await h.addPile('CP-LEGACY', { password, passwordHash: legacy });
    const client = await h.connect('CP-LEGACY', password);
    const row = await eventually(async () => {
      const [found] = await h.query<{ password_hash: string; password_rehashed_from: string }>(
        'SELECT password_hash, password_rehashed_from FROM pile_registry WHERE charge_point_id = $1',
        ['CP-LEGACY'],
      );
      expect(found.password_hash).toMatch(/^hmac-sha256\$v1\$dev\$/);
      return found;
    });
    expect(row.password_rehashed_from).toBe(legacy);
    expect((await h.hasher.verify(row.password_hash, password)).match).toBe(true);
    // Re-storing the same password is no change of credentials: the live connection stays open
    // through the registry polls that see the new row.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await client.call('Heartbeat', {})).toHaveProperty('currentTime');
    expect(
      h.logs.filter((l) => l.msg === 'pile connection revoked' && l['chargePointId'] === 'CP-LEGACY'),
    ).toEqual([]);
    // The next handshake verifies the keyed hash; the old password form is gone for good.
    await client.close();
    const again = await h.connect('CP-LEGACY', password);
    expect(await again.call('Heartbeat', {})).toHaveProperty('currentTime');
    const [after] = await h.query<{ password_hash: string }>(
      'SELECT password_hash FROM pile_registry WHERE charge_point_id = $1',
      ['CP-LEGACY'],
    );
    expect(after.password_hash).toBe(row.password_hash);
  });

  it('two replicas admitting an argon2 pile at once store its new hash exactly once', async () => {
    const replica = await h.startReplica();
    const password = 'legacy-pile-secret-4567';
    const legacy = await argon2.hash(password, { type: argon2.argon2id });
    await h.addPile('CP-LEGACY-2', { password, passwordHash: legacy });
    const statuses = await Promise.all([
      h.handshakeStatus('CP-LEGACY-2', password),
      h.handshake('CP-LEGACY-2', password, ['ocpp1.6'], '/ocpp', replica.port).then((a) => a.status),
    ]);
    expect(statuses).toEqual([101, 101]);
    const stored = () =>
      h.logs.filter(
        (l) =>
          l.msg === 'pile password stored again in the current form' && l['chargePointId'] === 'CP-LEGACY-2',
      );
    await eventually(() => expect(stored()).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stored()).toHaveLength(1);
    const [row] = await h.query<{ password_rehashed_from: string }>(
      'SELECT password_rehashed_from FROM pile_registry WHERE charge_point_id = $1',
      ['CP-LEGACY-2'],
    );
    expect(row.password_rehashed_from).toBe(legacy);
  });

  it('rejects a handshake without the ocpp1.6 subprotocol (400) and a path outside /ocpp (404)', async () => {
    const password = await h.addPile('CP-PROTO');
    expect(await h.handshakeStatus('CP-PROTO', password, ['ocpp2.0.1'])).toBe(400);
    expect(await h.handshakeStatus('CP-PROTO', password, ['ocpp1.6'], '/other')).toBe(404);
  });

  it('sees a pile registered after start-up at once, and closes it when it is disabled later', async () => {
    const password = await h.addPile('CP-LATE', { state: 'active' });
    const client = await h.connect('CP-LATE', password);
    const closed = new Promise<{ code: number; reason: string }>((resolve) => client.once('close', resolve));
    expect(await client.call('BootNotification', bootRequest)).toMatchObject({ status: 'Accepted' });
    await h.query(`UPDATE pile_registry SET state = 'disabled' WHERE charge_point_id = 'CP-LATE'`);
    expect(await closed).toMatchObject({ code: 4003, reason: 'Pile disabled' });
    const again = await h.connect('CP-LATE', password);
    expect(await again.call('BootNotification', bootRequest)).toMatchObject({ status: 'Rejected' });
  });

  it('replaces an older connection of the same pile with the new one', async () => {
    const password = await h.addPile('CP-TWICE');
    const first = await h.connect('CP-TWICE', password);
    const firstClosed = new Promise<{ code: number }>((resolve) => first.once('close', resolve));
    const second = await h.connect('CP-TWICE', password);
    expect((await firstClosed).code).toBe(4001);
    expect(await second.call('Heartbeat', {})).toHaveProperty('currentTime');
    const record = await h.gateway.sessions.lookup('CP-TWICE');
    expect(record?.sessionId).toBe(h.gateway.sessions.get('CP-TWICE')?.sessionId);
    // The replaced connection does not announce a disconnection: the pile is still online.
    await new Promise((r) => setTimeout(r, 300));
    expect(
      h
        .eventsOfType('pile.disconnected')
        .filter((e) => (e.payload as { chargePointId: string }).chargePointId === 'CP-TWICE'),
    ).toHaveLength(0);
  });

  it('replaces a connection held by another replica', async () => {
    const replica = await h.startReplica();
    const password = await h.addPile('CP-MOVE');
    const first = await h.connect('CP-MOVE', password, { url: `ws://127.0.0.1:${replica.port}/ocpp` });
    const firstClosed = new Promise<{ code: number }>((resolve) => first.once('close', resolve));
    await h.connect('CP-MOVE', password);
    expect((await firstClosed).code).toBe(4001);
    expect((await h.gateway.sessions.lookup('CP-MOVE'))?.replicaId).toBe(h.gateway.replicaId);
  });
});

describe('malformed frames', () => {
  let password: string;
  beforeAll(async () => {
    password = await h.addPile('CP-BAD');
  });

  it.each([
    ['not JSON', 'this is not json', ['RpcFrameworkError']],
    ['not an array', '{"a":1}', ['RpcFrameworkError']],
    ['unknown message type', '[7,"m1","Heartbeat",{}]', ['MessageTypeNotSupported']],
    ['unknown action', '[2,"m2","FlyToMoon",{}]', ['NotImplemented']],
    [
      'missing required field',
      '[2,"m3","BootNotification",{"chargePointVendor":"X"}]',
      ['OccurrenceConstraintViolation'],
    ],
    [
      'wrong type',
      '[2,"m4","StatusNotification",{"connectorId":"one","errorCode":"NoError","status":"Available"}]',
      ['TypeConstraintViolation'],
    ],
    [
      'bad enum value',
      '[2,"m5","StatusNotification",{"connectorId":1,"errorCode":"NoError","status":"Dancing"}]',
      ['PropertyConstraintViolation', 'FormationViolation'],
    ],
    ['string too long', `[2,"m6","Authorize",{"idTag":"${'x'.repeat(21)}"}]`, ['FormationViolation']],
    [
      'extra property',
      '[2,"m7","Heartbeat",{"surprise":true}]',
      ['PropertyConstraintViolation', 'OccurrenceConstraintViolation'],
    ],
  ])('%s -> CallError', async (_name, frame, codes) => {
    const { ws, frames } = await h.rawSocket('CP-BAD', password);
    ws.send(frame);
    const reply = await eventually(() => {
      if (!frames.length) throw new Error('no reply');
      return JSON.parse(frames[0]) as unknown[];
    });
    expect(reply[0]).toBe(4);
    expect(codes).toContain(reply[2]);
    // The connection (and the process) carry on.
    ws.send('[2,"hb","Heartbeat",{}]');
    await eventually(() => expect(frames.some((f) => f.startsWith('[3,"hb"'))).toBe(true));
    ws.close();
  });

  it('closes a connection after too many malformed frames in a row (1002) and keeps serving others', async () => {
    const { ws } = await h.rawSocket('CP-BAD', password);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    for (let i = 0; i < 12; i++) ws.send('garbage');
    expect(await closed).toBe(1002);
    const other = await h.connect('CP-BAD', password);
    expect(await other.call('Heartbeat', {})).toHaveProperty('currentTime');
  });

  it('closes a connection that sends a frame over 64 KiB with 1009', async () => {
    const { ws } = await h.rawSocket('CP-BAD', password);
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send(`[2,"big","DataTransfer",{"vendorId":"x","data":"${'y'.repeat(70 * 1024)}"}]`);
    expect(await closed).toBe(1009);
    const other = await h.connect('CP-BAD', password);
    expect(await other.call('Heartbeat', {})).toHaveProperty('currentTime');
  });
});

describe('connection record in Redis', () => {
  it('is kept alive while connected and never taken over by a replaced session', async () => {
    const password = await h.addPile('CP-TTL');
    const pile = await h.connect('CP-TTL', password);
    await pile.call('Heartbeat', {}); // answered once the connection is registered
    const key = h.gateway.sessions.connectionKey('CP-TTL');
    await h.redis.expire(key, 5);
    await h.gateway.sessions.refreshAll();
    expect(await h.redis.ttl(key)).toBeGreaterThan(60);
    // A stale session's refresh cannot resurrect or steal the record.
    const record = await h.gateway.sessions.lookup('CP-TTL');
    await h.gateway.sessions.release({ ...h.gateway.sessions.get('CP-TTL')!, sessionId: 'someone-else' });
    expect(await h.gateway.sessions.lookup('CP-TTL')).toEqual(record);
  });

  it('is extended by the periodic refresh only when not written in the last third of its lifetime', async () => {
    // A registry of its own with a 3 s lifetime (one third: 1 s); Redis is the real one.
    const registry = new SessionRegistry(h.redis, {
      replicaId: 'refresh-test',
      prefix: `${h.prefix}-refresh`,
      ttlSeconds: 3,
    });
    const session = {
      sessionId: 's-refresh',
      chargePointId: 'CP-REFRESH',
      connectedAt: new Date(),
      sequence: 1,
    };
    await registry.register(session as PileSession);
    const key = registry.connectionKey('CP-REFRESH');
    try {
      await h.redis.pexpire(key, 2_500);
      // Just registered: two thirds of its lifetime are left, nothing is sent.
      expect(await registry.refreshStale()).toBe(0);
      expect(await h.redis.pttl(key)).toBeLessThanOrEqual(2_500);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      // Written more than a third ago: extended to the full lifetime again.
      expect(await registry.refreshStale()).toBe(1);
      expect(await h.redis.pttl(key)).toBeGreaterThan(2_500);
      // And counted as written now: the next refresh right after sends nothing.
      expect(await registry.refreshStale()).toBe(0);
    } finally {
      await registry.release(session as PileSession);
    }
    expect(await h.redis.exists(key)).toBe(0);
  });
});

describe('event order of one connection', () => {
  it('records PileConnected before anything the pile sends, and PileDisconnected after it', async () => {
    const password = await h.addPile('CP-ORDER');
    // Registration is slow under load (a Redis round trip); make it slow here to expose any race.
    const sessions = h.gateway.sessions;
    const register = sessions.register.bind(sessions);
    const spy = jest.spyOn(sessions, 'register').mockImplementation(async (session) => {
      await new Promise((r) => setTimeout(r, 100));
      return register(session);
    });
    for (let round = 0; round < 5; round++) {
      const { ws } = await h.rawSocket('CP-ORDER', password);
      const closed = new Promise((resolve) => ws.once('close', resolve));
      // Sent the instant the socket opens, while the gateway is still registering the connection.
      ws.send(JSON.stringify([2, `b${round}`, 'BootNotification', bootRequest]));
      ws.send(
        JSON.stringify([
          2,
          `s${round}`,
          'StatusNotification',
          { connectorId: 0, errorCode: 'NoError', status: 'Available' },
        ]),
      );
      ws.close();
      await closed;
      // The next connection must not replace this one (a replaced connection announces no disconnection).
      await eventually(async () =>
        expect(
          await h.query(`SELECT 1 FROM outbox_event WHERE key = 'CP-ORDER' AND type = 'pile.disconnected'`),
        ).toHaveLength(round + 1),
      );
    }
    const types = await eventually(async () => {
      const rows = await h.query<{ type: string }>(
        `SELECT type FROM outbox_event WHERE key = 'CP-ORDER' ORDER BY id`,
      );
      if (rows.filter((r) => r.type === 'pile.disconnected').length < 5)
        throw new Error('not all disconnected yet');
      return rows.map((r) => r.type);
    });
    spy.mockRestore();
    const expected = ['pile.connected', 'pile.booted', 'connector.status-changed', 'pile.disconnected'];
    expect(types).toEqual(Array.from({ length: 5 }, () => expected).flat());
  });
});

describe('two connections of one pile racing to register', () => {
  it('keeps the newer connection when the older one finishes registering last', async () => {
    const password = await h.addPile('CP-RACE');
    const sessions = h.gateway.sessions;
    const register = sessions.register.bind(sessions);
    let slowFirst = true;
    const spy = jest.spyOn(sessions, 'register').mockImplementation(async (session) => {
      if (slowFirst) {
        slowFirst = false;
        await new Promise((r) => setTimeout(r, 300));
      }
      return register(session);
    });
    try {
      const older = await h.rawSocket('CP-RACE', password);
      const olderClosed = new Promise<number>((resolve) => older.ws.once('close', (code) => resolve(code)));
      const newer = await h.connect('CP-RACE', password);
      expect(await newer.call('Heartbeat', {})).toHaveProperty('currentTime');
      expect(await olderClosed).toBe(4001);
      // The newer connection is still the pile's, here and in Redis.
      expect(await newer.call('Heartbeat', {})).toHaveProperty('currentTime');
      const local = sessions.get('CP-RACE');
      expect(local?.client).toBeDefined();
      expect((await sessions.lookup('CP-RACE'))?.sessionId).toBe(local?.sessionId);
      await newer.close();
      await eventually(async () => expect(await sessions.lookup('CP-RACE')).toBeUndefined());
    } finally {
      spy.mockRestore();
    }
  });

  it('a replica does not take the record of a connection accepted later on another replica', async () => {
    const prefix = `${h.prefix}-replicas`;
    const a = new SessionRegistry(h.redis, { replicaId: 'replica-a', prefix });
    const b = new SessionRegistry(h.redis, { replicaId: 'replica-b', prefix });
    const session = (sessionId: string, connectedAt: string) =>
      ({
        sessionId,
        chargePointId: 'CP-REPLICAS',
        registryState: 'active',
        connectedAt: new Date(connectedAt),
        sequence: 1,
        client: {},
      }) as unknown as PileSession;
    const newer = session('newer', '2026-11-22T10:00:01.000Z');
    const older = session('older', '2026-11-22T10:00:00.000Z');
    expect(await a.register(newer)).toEqual({ previous: undefined, superseded: false });
    expect(await b.register(older)).toEqual({ superseded: true });
    expect(b.get('CP-REPLICAS')).toBeUndefined();
    expect(await a.lookup('CP-REPLICAS')).toMatchObject({ replicaId: 'replica-a', sessionId: 'newer' });
    // A later connection on replica b does take it over.
    const latest = session('latest', '2026-11-22T10:00:02.000Z');
    expect(await b.register(latest)).toEqual({ previous: undefined, superseded: false });
    expect(await a.lookup('CP-REPLICAS')).toMatchObject({ replicaId: 'replica-b', sessionId: 'latest' });
    await h.redis.del(a.connectionKey('CP-REPLICAS'));
  });
});
