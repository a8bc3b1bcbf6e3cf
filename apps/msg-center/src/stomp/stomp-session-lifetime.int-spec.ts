import { SessionService } from '@voltdepot/server-identity';
import type { IdentityOptions } from '@voltdepot/server-identity';
import {
  createTestDatabase,
  deleteRedisKeys,
  eventually,
  insertUser,
  TestDatabase,
} from '@voltdepot/server-testing';
import { STOMP_INBOX_TOPIC } from '@voltdepot/shared-contracts';
import Redis from 'ioredis';
import { decodeJwt } from 'jose';
import type { MsgCenterConfig } from '../app.config';
import {
  connectStomp,
  msgTestConfig,
  RunningMsgCenter,
  startMsgCenter,
  TEST_JWT_SECRET,
  testNamespace,
} from '../fixtures/msg-center.fixtures';
import { frame, openRawStomp, RawStomp } from '../fixtures/raw-stomp';
import { PushPublisher } from './push.publisher';

/**
 * A STOMP session lives no longer than the access token it was opened with, nor than the platform
 * session behind it: the identity area's SessionService (sign-in, logout, revoke-all) issues and revokes them.
 */
describe('STOMP session lifetime: token expiry and revocation (real Redis, identity sessions)', () => {
  let db: TestDatabase;
  let ns: string;
  let config: MsgCenterConfig;
  let replicaA: RunningMsgCenter;
  let replicaB: RunningMsgCenter;
  let redis: Redis;
  const cleanups: (() => unknown)[] = [];

  const identity = (accessTokenTtlSeconds: number) =>
    new SessionService(redis, {
      jwtSecret: TEST_JWT_SECRET,
      accessTokenTtlSeconds,
      refreshTokenTtlSeconds: 3600,
    } as IdentityOptions);

  beforeAll(async () => {
    db = await createTestDatabase();
    ns = testNamespace();
    config = msgTestConfig(db, ns, { STOMP_SESSION_CHECK_MS: '100' });
    redis = new Redis(config.REDIS_URL, { keyPrefix: config.AUTH_REDIS_KEY_PREFIX });
    replicaA = await startMsgCenter(config);
    replicaB = await startMsgCenter(config);
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await Promise.resolve(cleanup()).catch(() => undefined);
  });

  afterAll(async () => {
    await replicaA?.close();
    await replicaB?.close();
    redis?.disconnect();
    await deleteRedisKeys(config.REDIS_URL, ns);
    await db?.drop();
  });

  async function connectRaw(url: string, token: string): Promise<RawStomp> {
    const raw = await openRawStomp(url);
    cleanups.push(() => raw.close());
    raw.send(frame('CONNECT', { 'accept-version': '1.2', Authorization: `Bearer ${token}` }));
    expect((await raw.next()).command).toBe('CONNECTED');
    raw.send(frame('SUBSCRIBE', { id: 's', destination: STOMP_INBOX_TOPIC, receipt: 'r' }));
    expect((await raw.next()).command).toBe('RECEIPT');
    return raw;
  }

  it('ends a session with an ERROR frame when its access token expires', async () => {
    const user = await insertUser(db.dataSource, ['operator']);
    const tokens = await identity(2).start(user);
    const raw = await connectRaw(replicaA.wsUrl, tokens.accessToken);
    const error = await raw.next(4000);
    const endedAt = Date.now();
    expect(error).toMatchObject({
      command: 'ERROR',
      headers: { message: 'Access token has expired', code: 'AUTH_TOKEN_EXPIRED' },
      body: 'The access token of this session has expired; connect again with a new one',
    });
    await raw.closed;
    // Not before the token's expiry, and soon after it.
    expect(endedAt).toBeGreaterThanOrEqual(tokens.expires);
    expect(endedAt - tokens.expires).toBeLessThan(1000);
  });

  it('a reconnect with the refreshed token is accepted and keeps receiving', async () => {
    const user = await insertUser(db.dataSource, ['operator']);
    const first = await identity(1).start(user);
    const raw = await connectRaw(replicaA.wsUrl, first.accessToken);
    expect((await raw.next(3000)).headers['code']).toBe('AUTH_TOKEN_EXPIRED');
    const fresh = await identity(900).start(user);
    const client = await connectStomp(replicaA.wsUrl, { Authorization: `Bearer ${fresh.accessToken}` }, [
      STOMP_INBOX_TOPIC,
    ]);
    cleanups.push(() => client.close());
    await replicaA.app.get(PushPublisher).toUsers([user.id], STOMP_INBOX_TOPIC, { n: 1 });
    await eventually(() => expect(client.received(STOMP_INBOX_TOPIC)).toEqual([{ n: 1 }]), 3000);
  });

  it('ends every STOMP session of a platform session at logout, on every replica, and no other', async () => {
    const alice = await insertUser(db.dataSource, ['operator']);
    const bob = await insertUser(db.dataSource, ['operator']);
    const sessions = identity(900);
    const aliceTokens = await sessions.start(alice);
    const aliceOtherDevice = await sessions.start(alice);
    const bobTokens = await sessions.start(bob);
    // Two tabs of the same sign-in, on two replicas, and the same user signed in elsewhere.
    const tab1 = await connectRaw(replicaA.wsUrl, aliceTokens.accessToken);
    const tab2 = await connectRaw(replicaB.wsUrl, aliceTokens.accessToken);
    const elsewhere = await connectStomp(
      replicaA.wsUrl,
      { Authorization: `Bearer ${aliceOtherDevice.accessToken}` },
      [STOMP_INBOX_TOPIC],
    );
    const bobClient = await connectStomp(
      replicaB.wsUrl,
      { Authorization: `Bearer ${bobTokens.accessToken}` },
      [STOMP_INBOX_TOPIC],
    );
    cleanups.push(
      () => elsewhere.close(),
      () => bobClient.close(),
    );

    const loggedOutAt = Date.now();
    await sessions.revoke(String(decodeJwt(aliceTokens.accessToken).sid), alice.id);
    for (const tab of [tab1, tab2]) {
      expect(await tab.next(3000)).toMatchObject({
        command: 'ERROR',
        headers: { message: 'Session has been revoked', code: 'AUTH_TOKEN_REVOKED' },
        body: 'The session has been signed out or revoked',
      });
      await tab.closed;
    }
    expect(Date.now() - loggedOutAt).toBeLessThan(2000);

    await replicaA.app.get(PushPublisher).toUsers([alice.id, bob.id], STOMP_INBOX_TOPIC, { still: 'here' });
    await eventually(() => {
      expect(elsewhere.received(STOMP_INBOX_TOPIC)).toEqual([{ still: 'here' }]);
      expect(bobClient.received(STOMP_INBOX_TOPIC)).toEqual([{ still: 'here' }]);
    }, 3000);
    expect(elsewhere.client.connected).toBe(true);
  });

  it('ends every session of a user whose sessions are all revoked (disabled, password reset)', async () => {
    const carol = await insertUser(db.dataSource, ['operator']);
    const sessions = identity(900);
    const a = await connectRaw(replicaA.wsUrl, (await sessions.start(carol)).accessToken);
    const b = await connectRaw(replicaB.wsUrl, (await sessions.start(carol)).accessToken);
    await sessions.revokeAllOf(carol.id);
    for (const raw of [a, b]) {
      expect((await raw.next(3000)).headers).toMatchObject({
        message: 'Session has been revoked',
        code: 'AUTH_TOKEN_REVOKED',
      });
    }
  });
});
