import { createTestDatabase, eventually, insertUser, TestDatabase } from '@voltdepot/server-testing';
import { monitorFeedChannel } from '@voltdepot/server-monitoring';
import { monitorStationTopic, STOMP_INBOX_TOPIC, STOMP_STOP_NOTICE_TOPIC } from '@voltdepot/shared-contracts';
import Redis from 'ioredis';
import type { MsgCenterConfig } from '../app.config';
import {
  connectStomp,
  msgTestConfig,
  RunningMsgCenter,
  startMsgCenter,
  testNamespace,
  tokenFor,
} from '../fixtures/msg-center.fixtures';
import { frame, openRawStomp } from '../fixtures/raw-stomp';
import { PushPublisher } from './push.publisher';
import { MAX_SUBSCRIPTIONS } from './stomp-session';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('STOMP over WebSocket at /ms/ws (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let config: MsgCenterConfig;
  let replicaA: RunningMsgCenter;
  let replicaB: RunningMsgCenter;
  let alice: { id: number; username: string };
  let bob: { id: number; username: string };
  let aliceToken: string;
  let bobToken: string;
  const cleanups: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    config = msgTestConfig(db, testNamespace());
    replicaA = await startMsgCenter(config);
    replicaB = await startMsgCenter(config);
    alice = await insertUser(db.dataSource, ['operator']);
    bob = await insertUser(db.dataSource, ['operator']);
    aliceToken = await tokenFor(config, alice);
    bobToken = await tokenFor(config, bob);
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => undefined);
  });

  afterAll(async () => {
    await replicaA?.close();
    await replicaB?.close();
    await db?.drop();
  });

  async function connect(
    url: string,
    token: string,
    destinations = [STOMP_INBOX_TOPIC, STOMP_STOP_NOTICE_TOPIC],
  ) {
    const client = await connectStomp(url, { Authorization: `Bearer ${token}` }, destinations);
    cleanups.push(() => client.close());
    return client;
  }

  describe('CONNECT', () => {
    it('answers CONNECTED with version 1.2 and heart-beat 30000,30000', async () => {
      const raw = await openRawStomp(replicaA.wsUrl);
      cleanups.push(async () => raw.close());
      raw.send(
        frame('CONNECT', {
          'accept-version': '1.0,1.1,1.2',
          host: 'localhost',
          'heart-beat': '10000,10000',
          Authorization: `Bearer ${aliceToken}`,
        }),
      );
      const connected = await raw.next();
      expect(connected.command).toBe('CONNECTED');
      expect(connected.headers).toMatchObject({
        version: '1.2',
        'heart-beat': '30000,30000',
        'user-name': alice.username,
      });
    });

    it.each([
      ['passcode', (t: string) => ({ passcode: t })],
      ['login', (t: string) => ({ login: t })],
    ])('accepts the token in the %s header', async (_name, headers) => {
      const client = await connectStomp(replicaA.wsUrl, headers(aliceToken), []);
      await client.close();
    });

    it.each([
      ['no token', async () => ({}), 'Authentication required'],
      ['a malformed token', async () => ({ Authorization: 'Bearer not-a-jwt' }), 'Access token is invalid'],
      [
        'an expired token',
        async () => ({
          Authorization: `Bearer ${await tokenFor(config, alice, 60, Date.now() - 3_600_000)}`,
        }),
        'Access token has expired',
      ],
      [
        'a token of a revoked session',
        async () => ({
          Authorization: `Bearer ${await tokenFor({ ...config, AUTH_REDIS_KEY_PREFIX: 'elsewhere:' }, alice)}`,
        }),
        'Session has been revoked',
      ],
    ])('refuses %s with an ERROR frame and closes', async (_case, headers, detail) => {
      const raw = await openRawStomp(replicaA.wsUrl);
      raw.send(frame('CONNECT', { 'accept-version': '1.2', ...(await headers()) }));
      const error = await raw.next();
      expect(error.command).toBe('ERROR');
      expect(error.headers['message']).toBe('Authentication failed');
      expect(error.body).toBe(detail);
      await raw.closed;
    });

    it('refuses the token through @stomp/stompjs too', async () => {
      await expect(connectStomp(replicaA.wsUrl, { Authorization: 'Bearer nope' }, [])).rejects.toThrow(
        'Authentication failed',
      );
    });
  });

  describe('frames', () => {
    async function connectedRaw() {
      const raw = await openRawStomp(replicaA.wsUrl);
      cleanups.push(async () => raw.close());
      raw.send(frame('CONNECT', { 'accept-version': '1.2', Authorization: `Bearer ${aliceToken}` }));
      expect((await raw.next()).command).toBe('CONNECTED');
      return raw;
    }

    it('answers receipts and DISCONNECT with a receipt, then closes', async () => {
      const raw = await connectedRaw();
      raw.send(frame('SUBSCRIBE', { id: 'sub-0', destination: STOMP_INBOX_TOPIC, receipt: 'r1' }));
      expect(await raw.next()).toMatchObject({ command: 'RECEIPT', headers: { 'receipt-id': 'r1' } });
      raw.send(frame('UNSUBSCRIBE', { id: 'sub-0', receipt: 'r2' }));
      expect(await raw.next()).toMatchObject({ command: 'RECEIPT', headers: { 'receipt-id': 'r2' } });
      raw.send(frame('DISCONNECT', { receipt: 'bye' }));
      expect(await raw.next()).toMatchObject({ command: 'RECEIPT', headers: { 'receipt-id': 'bye' } });
      await raw.closed;
    });

    it.each([
      [
        'a frame before CONNECT',
        false,
        frame('SUBSCRIBE', { id: '1', destination: STOMP_INBOX_TOPIC }),
        'Not connected',
        'Expected CONNECT, got SUBSCRIBE',
      ],
      ['an unknown command', true, frame('HELLO'), 'Malformed frame', "Unknown command 'HELLO'"],
      [
        'SUBSCRIBE without id',
        true,
        frame('SUBSCRIBE', { destination: STOMP_INBOX_TOPIC }),
        'Missing id header',
        'SUBSCRIBE requires an id header',
      ],
      [
        'SUBSCRIBE to an unknown destination',
        true,
        frame('SUBSCRIBE', { id: '1', destination: '/queue/x' }),
        'Unknown destination',
        "Cannot subscribe to '/queue/x'",
      ],
      [
        'SEND to a user destination',
        true,
        frame('SEND', { destination: STOMP_INBOX_TOPIC }, '{}'),
        'Forbidden destination',
        `Clients cannot send to '${STOMP_INBOX_TOPIC}': only /app/... takes a SEND, naming a handler`,
      ],
      [
        'SEND to a topic (any signed-in user reached every subscriber of /topic/X before)',
        true,
        frame('SEND', { destination: '/topic/m1/msg/events' }, '{"what":"stations"}'),
        'Forbidden destination',
        "Clients cannot send to '/topic/m1/msg/events': only /app/... takes a SEND, naming a handler",
      ],
      [
        'SEND to a guarded topic (live monitoring)',
        true,
        frame('SEND', { destination: '/topic/monitor/station/1' }, '{"stationId":1,"piles":[]}'),
        'Forbidden destination',
        "Clients cannot send to '/topic/monitor/station/1': only /app/... takes a SEND, naming a handler",
      ],
      [
        'SEND to /app/X naming no handler (was broadcast to /topic/X)',
        true,
        frame('SEND', { destination: '/app/m1/msg/events', command: 'refresh' }, '{"what":"stations"}'),
        'Forbidden destination',
        `A SEND to '/app/m1/msg/events' must name a handler ({"handler": "..."}); messages are not relayed to subscribers`,
      ],
      [
        'SEND to /app/X with no body',
        true,
        frame('SEND', { destination: '/app/m1/msg' }),
        'Forbidden destination',
        `A SEND to '/app/m1/msg' must name a handler ({"handler": "..."}); messages are not relayed to subscribers`,
      ],
      [
        'SEND naming an unknown handler',
        true,
        frame('SEND', { destination: '/app/m1/msg' }, '{"handler":"nope"}'),
        'Unknown handler',
        "No handler 'nope'",
      ],
      [
        'SEND with a body that is not JSON',
        true,
        frame('SEND', { destination: '/app/m1/msg' }, 'hello'),
        'Invalid body',
        'The body must be JSON',
      ],
      [
        'a transaction',
        true,
        frame('BEGIN', { transaction: 't1' }),
        'Transactions are not supported',
        'Transactions are not supported',
      ],
    ])('answers %s with an ERROR frame and closes', async (_case, connectFirst, bad, message, detail) => {
      const raw = connectFirst ? await connectedRaw() : await openRawStomp(replicaA.wsUrl);
      cleanups.push(async () => raw.close());
      raw.send(bad);
      const error = await raw.next();
      expect(error).toMatchObject({ command: 'ERROR', headers: { message }, body: detail });
      await raw.closed;
    });

    it(`refuses a subscription beyond ${MAX_SUBSCRIPTIONS} per session with an ERROR`, async () => {
      const raw = await connectedRaw();
      for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) {
        raw.send(frame('SUBSCRIBE', { id: `s${i}`, destination: `/topic/load-${i}`, receipt: `r${i}` }));
        expect(await raw.next()).toMatchObject({ command: 'RECEIPT', headers: { 'receipt-id': `r${i}` } });
      }
      raw.send(frame('SUBSCRIBE', { id: 'one-more', destination: '/topic/load-x' }));
      expect(await raw.next()).toMatchObject({
        command: 'ERROR',
        headers: { message: 'Too many subscriptions' },
      });
      await raw.closed;
    });

    it('echoes the receipt id on an ERROR caused by a frame with a receipt', async () => {
      const raw = await connectedRaw();
      raw.send(frame('SUBSCRIBE', { destination: STOMP_INBOX_TOPIC, receipt: 'r9' }));
      expect(await raw.next()).toMatchObject({ command: 'ERROR', headers: { 'receipt-id': 'r9' } });
    });
  });

  it('delivers a live-monitoring change once to a subscriber, however many replicas hear the feed', async () => {
    // A station in the operator's data scope (the seeded organisation HF).
    const [org] = (await db.dataSource.query(`SELECT id FROM sys_organization WHERE code = 'HF'`)) as {
      id: number;
    }[];
    const [region] = (await db.dataSource.query(
      `INSERT INTO region (name, area_code) VALUES ('合肥市', '340100') RETURNING id`,
    )) as { id: number }[];
    const [station] = (await db.dataSource.query(
      `INSERT INTO station (organization_id, number, name, region_id, type, status, address, longitude, latitude,
         opening_time, closing_time, is_open, supports_reservation, fee_scope, free_parking_minutes,
         occupation_interval_minutes, occupation_unit_price_fen, capped_amount_fen)
       VALUES ($1, 'FEED-1', 'Feed depot', $2, 100, 0, 'Depot road', 117.23, 31.82, '00:00', '23:59', true, false,
         'internal', 0, 15, 0, 0) RETURNING id`,
      [org.id, region.id],
    )) as { id: number }[];
    const topic = monitorStationTopic(Number(station.id));
    const onA = await connect(replicaA.wsUrl, aliceToken, [topic]);
    const publisher = new Redis(config.REDIS_URL);
    cleanups.push(() => publisher.quit());
    const push = { stationId: Number(station.id), at: new Date().toISOString(), piles: [] };
    await publisher.publish(monitorFeedChannel(config.BUS_PREFIX ?? 'vd'), JSON.stringify(push));
    await eventually(() => expect(onA.received(topic)).toEqual([push]), 2000);
    await sleep(300); // replica B heard it too: it must not have fanned it out again
    expect(onA.received(topic)).toHaveLength(1);
  });

  describe('user destinations', () => {
    it('deliver only to the sessions of the addressed user, on every replica', async () => {
      const aliceOnA = await connect(replicaA.wsUrl, aliceToken);
      const aliceOnB = await connect(replicaB.wsUrl, aliceToken);
      const bobOnA = await connect(replicaA.wsUrl, bobToken);

      await replicaB.app
        .get(PushPublisher)
        .toUsers([alice.id], STOMP_STOP_NOTICE_TOPIC, { type: 1, msg: 'hi', date: 'x' });

      await eventually(() => {
        expect(aliceOnA.received(STOMP_STOP_NOTICE_TOPIC)).toEqual([{ type: 1, msg: 'hi', date: 'x' }]);
        expect(aliceOnB.received(STOMP_STOP_NOTICE_TOPIC)).toEqual([{ type: 1, msg: 'hi', date: 'x' }]);
      }, 2000);
      await sleep(200);
      expect(bobOnA.received(STOMP_STOP_NOTICE_TOPIC)).toEqual([]);
      // Only the subscribed destination receives it.
      expect(aliceOnA.received(STOMP_INBOX_TOPIC)).toEqual([]);
    });

    it('stop after UNSUBSCRIBE', async () => {
      const raw = await openRawStomp(replicaA.wsUrl);
      cleanups.push(async () => raw.close());
      raw.send(frame('CONNECT', { 'accept-version': '1.2', passcode: bobToken }));
      await raw.next();
      raw.send(frame('SUBSCRIBE', { id: 's1', destination: STOMP_INBOX_TOPIC, receipt: 'r' }));
      await raw.next();
      await replicaA.app.get(PushPublisher).toUsers([bob.id], STOMP_INBOX_TOPIC, { n: 1 });
      expect(await raw.next()).toMatchObject({
        command: 'MESSAGE',
        headers: { subscription: 's1', destination: STOMP_INBOX_TOPIC },
        body: '{"n":1}',
      });
      raw.send(frame('UNSUBSCRIBE', { id: 's1', receipt: 'u' }));
      expect((await raw.next()).command).toBe('RECEIPT');
      await replicaA.app.get(PushPublisher).toUsers([bob.id], STOMP_INBOX_TOPIC, { n: 2 });
      await expect(raw.next(300)).rejects.toThrow('no frame in time');
    });
  });

  describe('SEND', () => {
    it('runs the handler a body names: inbox.unread pushes the caller their unread messages', async () => {
      await db.dataSource.query(
        `INSERT INTO msg_inbox (user_id, title, content, sender, dedupe_key) VALUES ($1, 'T', 'C', 'system', 'k1')`,
        [bob.id],
      );
      const bobClient = await connect(replicaA.wsUrl, bobToken);
      const aliceClient = await connect(replicaB.wsUrl, aliceToken);
      bobClient.client.publish({
        destination: '/app/m1/msg',
        body: JSON.stringify({ handler: 'inbox.unread' }),
      });
      await eventually(() =>
        expect(bobClient.received(STOMP_INBOX_TOPIC)).toEqual([
          {
            handler: 'inbox.unread',
            command: 'unread',
            data: [expect.objectContaining({ title: 'T', content: 'C', sender: 'system', isRead: false })],
          },
        ]),
      );
      expect(aliceClient.received(STOMP_INBOX_TOPIC)).toEqual([]);
    });

    it('relays nothing a client sends: a subscriber of /topic/X gets no message from a SEND to /app/X', async () => {
      const listener = await connect(replicaB.wsUrl, bobToken, ['/topic/m1/msg/events']);
      const raw = await openRawStomp(replicaA.wsUrl);
      cleanups.push(async () => raw.close());
      raw.send(frame('CONNECT', { 'accept-version': '1.2', Authorization: `Bearer ${aliceToken}` }));
      expect((await raw.next()).command).toBe('CONNECTED');
      raw.send(frame('SEND', { destination: '/app/m1/msg/events' }, '{"what":"stations"}'));
      expect((await raw.next()).command).toBe('ERROR');
      await sleep(300);
      expect(listener.messages.get('/topic/m1/msg/events') ?? []).toEqual([]);
    });
  });

  describe('heart-beats', () => {
    let fast: RunningMsgCenter;

    beforeAll(async () => {
      fast = await startMsgCenter({ ...config, STOMP_HEARTBEAT_MS: 200, STOMP_HEARTBEAT_GRACE_MS: 100 });
    });
    afterAll(async () => {
      await fast?.close();
    });

    it('sends heart-beats and drops a client that stops sending them', async () => {
      const raw = await openRawStomp(fast.wsUrl);
      // The server's silence clock starts when CONNECT arrives, which is no earlier than this;
      // taking the time after CONNECTED arrives instead undercounts by that frame's delivery time.
      const started = Date.now();
      raw.send(frame('CONNECT', { 'accept-version': '1.2', 'heart-beat': '200,200', passcode: aliceToken }));
      expect((await raw.next()).headers['heart-beat']).toBe('200,200');
      // Silent from here on.
      const error = await raw.next(2000);
      expect(error).toMatchObject({ command: 'ERROR', headers: { message: 'Heart-beat time-out' } });
      await raw.closed;
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(raw.heartbeats).toBeGreaterThanOrEqual(1);
    });

    it('keeps a client that heart-beats', async () => {
      const client = await connectStomp(fast.wsUrl, { passcode: aliceToken }, [STOMP_INBOX_TOPIC], {
        heartbeatMs: 200,
      });
      cleanups.push(() => client.close());
      await sleep(1200);
      expect(client.client.connected).toBe(true);
      await fast.app.get(PushPublisher).toUsers([alice.id], STOMP_INBOX_TOPIC, { still: 'here' });
      await eventually(() => expect(client.received(STOMP_INBOX_TOPIC)).toEqual([{ still: 'here' }]), 2000);
    });
  });

  it('a client reconnects and re-subscribes after its replica restarts', async () => {
    let replica = await startMsgCenter(config);
    const port = replica.port;
    const client = await connectStomp(replica.wsUrl, { passcode: aliceToken }, [STOMP_INBOX_TOPIC], {
      reconnectDelay: 100,
    });
    cleanups.push(() => client.close());
    let connects = 0;
    const onConnect = client.client.onConnect;
    client.client.onConnect = (f) => {
      connects++;
      onConnect(f);
    };
    await replica.close();
    await eventually(() => expect(client.client.connected).toBe(false), 3000);
    replica = await startMsgCenter(config, port);
    cleanups.push(() => replica.close());
    await eventually(() => expect(connects).toBeGreaterThanOrEqual(1), 5000);
    await sleep(100);
    await replica.app.get(PushPublisher).toUsers([alice.id], STOMP_INBOX_TOPIC, { after: 'restart' });
    await eventually(() => expect(client.received(STOMP_INBOX_TOPIC)).toEqual([{ after: 'restart' }]), 3000);
  });
});
