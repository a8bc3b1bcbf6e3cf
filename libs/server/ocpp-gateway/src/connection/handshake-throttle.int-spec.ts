import { eventually } from '@voltdepot/server-testing';
import { GatewayTestHarness } from '../testing/fixtures/gateway-test-harness';

const WINDOW_S = 2;
const h = new GatewayTestHarness();

beforeAll(() =>
  h.start({
    OCPP_AUTH_MAX_FAILURES_PER_PILE: 3,
    OCPP_AUTH_MAX_FAILURES_PER_ADDRESS: 6,
    OCPP_AUTH_FAILURE_WINDOW_S: WINDOW_S,
    OCPP_AUTH_FAILURE_DELAY_MS: 0,
    OCPP_HANDSHAKE_TIMEOUT_MS: 1_000,
  }),
);
afterAll(() => h.stop());
// Every test starts with no failures counted (the counters live in Redis, under the harness's prefix).
afterEach(async () => {
  const keys = await h.redis.keys(`${h.prefix}:auth-failures:*`);
  if (keys.length) await h.redis.del(...keys);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const throttledLogs = () => h.logs.filter((l) => l.msg === 'pile handshakes throttled: too many failures');

describe('failed handshakes are throttled', () => {
  it('per charge point id: after 3 failures even the right password gets 429 until the window ends', async () => {
    const password = await h.addPile('TH-PILE');
    const other = await h.addPile('TH-OTHER');
    for (let i = 0; i < 3; i++) expect(await h.handshakeStatus('TH-PILE', 'wrong-password-000000')).toBe(401);
    expect(await h.handshake('TH-PILE', password)).toMatchObject({ status: 429, body: 'Too Many Requests' });
    // Only that id: another pile from the same address still connects.
    expect(await h.handshakeStatus('TH-OTHER', other)).toBe(101);
    expect(throttledLogs().filter((l) => l['lockedPile'] === 'TH-PILE')).toHaveLength(1);
    // The counter has a lifetime (memory stays bounded) and the lock ends with it.
    const [counter] = await h.redis.keys(`${h.prefix}:auth-failures:pile:TH-PILE:*`);
    expect(await h.redis.ttl(counter)).toBeGreaterThan(0);
    await sleep(WINDOW_S * 1000 + 300);
    expect(await h.handshakeStatus('TH-PILE', password)).toBe(101);
  });

  it('unknown ids are counted and locked exactly like registered ones', async () => {
    for (let i = 0; i < 3; i++)
      expect(await h.handshakeStatus('TH-NOBODY', 'wrong-password-000000')).toBe(401);
    expect(await h.handshake('TH-NOBODY', 'wrong-password-000000')).toMatchObject({
      status: 429,
      body: 'Too Many Requests',
    });
  });

  it('a pile that was locked out while unknown connects as soon as the operator registers it', async () => {
    for (let i = 0; i < 3; i++) expect(await h.handshakeStatus('TH-LATE', 'its-own-password-0000')).toBe(401);
    expect(await h.handshakeStatus('TH-LATE', 'its-own-password-0000')).toBe(429);
    await h.addPile('TH-LATE', { password: 'its-own-password-0000' });
    // Within the registry refresh, while the unknown id's counter still stands at its limit.
    await eventually(async () =>
      expect(await h.handshakeStatus('TH-LATE', 'its-own-password-0000')).toBe(101),
    );
    const unknownCounter = `${h.prefix}:auth-failures:pile:TH-LATE:none`;
    expect(await h.redis.get(unknownCounter)).toBe('3');
    expect(await h.redis.pttl(unknownCounter)).toBeGreaterThan(0);
  });

  it('per address: 6 failures from one address, whatever the ids, lock every handshake from it', async () => {
    const password = await h.addPile('TH-ADDR');
    for (let i = 0; i < 6; i++)
      expect(await h.handshakeStatus(`TH-SPRAY-${i}`, 'guess-0000000000000')).toBe(401);
    expect(await h.handshakeStatus('TH-ADDR', password)).toBe(429);
    expect(throttledLogs().some((l) => String(l['lockedAddress']).endsWith('127.0.0.1'))).toBe(true);
    await sleep(WINDOW_S * 1000 + 300);
    expect(await h.handshakeStatus('TH-ADDR', password)).toBe(101);
  });

  it('the counts are shared by the replicas: failures on one lock the id on the other', async () => {
    const replica = await h.startReplica({
      OCPP_AUTH_MAX_FAILURES_PER_PILE: 3,
      OCPP_AUTH_MAX_FAILURES_PER_ADDRESS: 6,
      OCPP_AUTH_FAILURE_WINDOW_S: WINDOW_S,
      OCPP_AUTH_FAILURE_DELAY_MS: 0,
    });
    const password = await h.addPile('TH-SHARED');
    for (let i = 0; i < 3; i++)
      expect(await h.handshakeStatus('TH-SHARED', 'wrong-password-000000')).toBe(401);
    const onReplica = await h.handshake('TH-SHARED', password, ['ocpp1.6'], '/ocpp', replica.port);
    expect(onReplica.status).toBe(429);
  });
});

describe('every handshake is answered within a bounded time', () => {
  it('a handshake waiting on a database that does not answer gets 503 at the deadline', async () => {
    // Holds a lock that the registry read of an unknown id waits for.
    const runner = h.db.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await runner.query('LOCK TABLE pile_registry IN ACCESS EXCLUSIVE MODE');
      const answer = await h.handshake('TH-SLOW-DB', 'whatever-password-000');
      expect(answer.status).toBe(503);
      expect(answer.ms).toBeGreaterThanOrEqual(950);
      expect(answer.ms).toBeLessThan(2_000);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    expect(
      h.logs.some(
        (l) => l.msg === 'pile handshake not decided in time' && l['chargePointId'] === 'TH-SLOW-DB',
      ),
    ).toBe(true);
  });
});
