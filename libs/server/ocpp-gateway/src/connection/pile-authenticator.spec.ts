import argon2 from 'argon2';
import pino from 'pino';
import { PilePasswordHasher } from '@voltdepot/server-pile-credentials';
import type { ThrottleKey } from './handshake-throttle';
import { PileAuthenticator, type HandshakeInput, type PileAuthenticatorDeps } from './pile-authenticator';
import { PileRegistryCache } from './pile-registry.cache';
import type { PileRecord, PileRegistryRepository } from './pile-registry.repository';

const hasher = new PilePasswordHasher({ id: '1', secret: 'unit-test-key-of-at-least-thirty-two-chars' });
const PASSWORD = 'pile-secret-0123456789';

function fakeRepository(rows: PileRecord[]) {
  const finds: string[] = [];
  const unknown: string[] = [];
  const restores: { chargePointId: string; from: string; to: string }[] = [];
  const repository = {
    find: async (id: string) => {
      finds.push(id);
      return rows.find((r) => r.chargePointId === id);
    },
    // The database's time of the read: here before every row, so each poll looks at all of them.
    changedSince: async (since?: Date) => ({
      rows: rows.filter((r) => !since || r.updatedAt >= since),
      polledAt: new Date(0),
    }),
    recordUnknownAttempt: async (id: string) => void unknown.push(id),
    // Compare-and-set, as the SQL does it.
    restorePasswordHash: async (chargePointId: string, from: string, to: string) => {
      const row = rows.find((r) => r.chargePointId === chargePointId && r.passwordHash === from);
      if (!row) return undefined;
      restores.push({ chargePointId, from, to });
      Object.assign(row, {
        passwordHash: to,
        passwordRehashedFrom: from,
        updatedAt: new Date(row.updatedAt.getTime() + 1),
      });
      return { ...row };
    },
  } as unknown as PileRegistryRepository;
  return { repository, finds, unknown, restores, rows };
}

/** Failure counts in memory (the real ones are in Redis: see handshake-throttle.int-spec). */
function fakeThrottle(maxPerPile = 3) {
  const failures = new Map<string, number>();
  const throttle = {
    failing: false,
    addressLocked: async () => {
      if (throttle.failing) throw new Error('redis down');
      return false;
    },
    pileLocked: async (id: string, credentials: string) => {
      if (throttle.failing) throw new Error('redis down');
      return (failures.get(`${id}:${credentials}`) ?? 0) >= maxPerPile;
    },
    recordFailure: async (id: string, credentials: string): Promise<ThrottleKey[]> => {
      if (throttle.failing) throw new Error('redis down');
      const key = `${id}:${credentials}`;
      failures.set(key, (failures.get(key) ?? 0) + 1);
      return failures.get(key) === maxPerPile ? [{ scope: 'pile', value: id }] : [];
    },
  };
  return { throttle, failures };
}

const input = (overrides: Partial<HandshakeInput> = {}): HandshakeInput => ({
  chargePointId: 'CP-1',
  endpoint: '/ocpp',
  protocols: new Set(['ocpp1.6']),
  password: Buffer.from(PASSWORD),
  remoteAddress: '10.0.0.1',
  ...overrides,
});

const pile = (overrides: Partial<PileRecord> = {}): PileRecord => ({
  chargePointId: 'CP-1',
  state: 'active',
  passwordHash: hasher.hash(PASSWORD),
  passwordRehashedFrom: null,
  updatedAt: new Date(1_000),
  ...overrides,
});

function make(rows: PileRecord[], deps: Partial<PileAuthenticatorDeps> = {}) {
  const fake = fakeRepository(rows);
  const registry = new PileRegistryCache(fake.repository);
  const { throttle, failures } = fakeThrottle();
  const auth = new PileAuthenticator({
    registry,
    repository: fake.repository,
    hasher,
    throttle,
    endpointPath: '/ocpp',
    logger: pino({ level: 'silent' }),
    ...deps,
  });
  return { auth, fake, registry, throttle, failures };
}

/** What the pile sees of a refusal. */
const answer = (decision: Awaited<ReturnType<PileAuthenticator['decide']>>) =>
  decision.accepted ? { accepted: true } : { status: decision.status, reason: decision.reason };

const LEGACY_OPTIONS = { type: argon2.argon2id, memoryCost: 1024, timeCost: 2 } as const;

describe('PileAuthenticator', () => {
  it.each([
    ['accepts the right password', input(), { accepted: true, state: 'active' }],
    ['401 for a wrong password', input({ password: Buffer.from('nope') }), { accepted: false, status: 401 }],
    ['401 without a password', input({ password: undefined }), { accepted: false, status: 401 }],
    ['404 outside the OCPP path', input({ endpoint: '/other' }), { accepted: false, status: 404 }],
    ['400 for an id with bad characters', input({ chargePointId: 'a b' }), { accepted: false, status: 400 }],
    [
      '400 without the ocpp1.6 subprotocol',
      input({ protocols: new Set(['ocpp2.0.1']) }),
      { accepted: false, status: 400 },
    ],
  ])('%s', async (_name, handshake, expected) => {
    const { auth } = make([pile()]);
    expect(await auth.decide(handshake)).toMatchObject(expected);
  });

  it('401 for a pile without a provisioned password', async () => {
    const { auth } = make([pile({ passwordHash: null })]);
    expect(await auth.decide(input())).toMatchObject({ accepted: false, status: 401 });
  });

  it('answers an unknown id exactly as a wrong password, and records the unknown attempt', async () => {
    const { auth, fake } = make([pile()]);
    const unknown = await auth.decide(input({ chargePointId: 'CP-X' }));
    const wrong = await auth.decide(input({ password: Buffer.from('wrong-password-000000') }));
    expect(answer(unknown)).toEqual({ status: 401, reason: 'Unauthorized' });
    expect(answer(wrong)).toEqual(answer(unknown));
    expect(unknown).toMatchObject({ log: 'unknown-pile' });
    expect(wrong).toMatchObject({ log: 'bad-credentials' });
    await new Promise((resolve) => setImmediate(resolve)); // the attempt is written in the background
    expect(fake.unknown).toEqual(['CP-X']);
  });

  describe('throttling', () => {
    it('counts failures of known and unknown ids alike, and refuses a locked id without verifying anything', async () => {
      const { auth, failures } = make([pile()]);
      const wrong = input({ password: Buffer.from('wrong-password-000000') });
      expect(await auth.decide(wrong)).toMatchObject({ status: 401, locked: [] });
      expect(await auth.decide(wrong)).toMatchObject({ status: 401, locked: [] });
      // The failure that reaches the limit says so (the server logs the lock once).
      expect(await auth.decide(wrong)).toMatchObject({
        status: 401,
        locked: [{ scope: 'pile', value: 'CP-1' }],
      });
      // Locked: the right password too is refused, without being verified.
      expect(await auth.decide(input())).toMatchObject({ status: 429, log: 'throttled' });
      expect([...failures.values()]).toEqual([3]); // refusals while locked do not count

      for (let i = 0; i < 3; i++) await auth.decide(input({ chargePointId: 'CP-GHOST' }));
      expect(answer(await auth.decide(input({ chargePointId: 'CP-GHOST' })))).toEqual({
        status: 429,
        reason: 'Too Many Requests',
      });
    });

    it('failures count against the credentials: a new password (or a registration) starts afresh', async () => {
      const { auth, fake, registry } = make([pile()]);
      for (let i = 0; i < 3; i++) await auth.decide(input({ password: Buffer.from('old-password-0000000') }));
      expect(await auth.decide(input())).toMatchObject({ status: 429 });
      fake.rows[0] = pile({ passwordHash: hasher.hash('new-password-00000000'), updatedAt: new Date(2_000) });
      await registry.refresh();
      const renewed = input({ password: Buffer.from('new-password-00000000') });
      expect(await auth.decide(renewed)).toMatchObject({ accepted: true });
    });

    it('a successful handshake does not count', async () => {
      const { auth, failures } = make([pile()]);
      for (let i = 0; i < 5; i++) expect(await auth.decide(input())).toMatchObject({ accepted: true });
      expect(failures.size).toBe(0);
    });

    it('without Redis nothing is locked: piles still connect', async () => {
      const { auth, throttle } = make([pile()]);
      throttle.failing = true;
      expect(await auth.decide(input())).toMatchObject({ accepted: true });
      expect(await auth.decide(input({ password: Buffer.from('nope') }))).toMatchObject({ status: 401 });
    });
  });

  describe('stored forms', () => {
    it('a hash in the current form is left as it is', async () => {
      const { auth, fake } = make([pile()]);
      expect(await auth.decide(input())).toMatchObject({ accepted: true });
      expect(fake.restores).toEqual([]);
    });

    it('an argon2 hash admits its pile, and is stored again in the current form once', async () => {
      const legacy = await argon2.hash(PASSWORD, LEGACY_OPTIONS);
      const { auth, fake, registry } = make([pile({ passwordHash: legacy })]);
      expect(await auth.decide(input())).toMatchObject({ accepted: true });
      await new Promise((resolve) => setImmediate(resolve));
      expect(fake.restores).toEqual([
        { chargePointId: 'CP-1', from: legacy, to: expect.stringMatching(/^hmac-sha256\$v1\$1\$/) },
      ]);
      // The replica's cache holds the new form at once: the next handshake costs no argon2.
      expect(hasher.formOf((await registry.get('CP-1'))!.passwordHash!)).toBe('current');
      expect(await auth.decide(input())).toMatchObject({ accepted: true });
      expect(fake.restores).toHaveLength(1);
    });

    it('a wrong password against an argon2 hash stores nothing', async () => {
      const legacy = await argon2.hash(PASSWORD, LEGACY_OPTIONS);
      const { auth, fake } = make([pile({ passwordHash: legacy })]);
      expect(await auth.decide(input({ password: Buffer.from('nope') }))).toMatchObject({ status: 401 });
      expect(fake.restores).toEqual([]);
    });

    it('argon2 verifications wait their turn in a bounded queue: beyond it, and once given up, 503 at once', async () => {
      const legacy = await argon2.hash(PASSWORD, LEGACY_OPTIONS);
      const rows = ['CP-1', 'CP-2', 'CP-3'].map((id) => pile({ chargePointId: id, passwordHash: legacy }));
      const { auth } = make(rows, { slowVerifications: { concurrency: 1, maxWaiting: 1 } });
      const [first, second, third] = await Promise.all(
        ['CP-1', 'CP-2', 'CP-3'].map((id) => auth.decide(input({ chargePointId: id }))),
      );
      expect(first).toMatchObject({ accepted: true });
      expect(second).toMatchObject({ accepted: true });
      expect(third).toMatchObject({ accepted: false, status: 503, log: 'busy' });

      const givenUp = new AbortController();
      givenUp.abort();
      expect(await auth.decide(input({ chargePointId: 'CP-3', signal: givenUp.signal }))).toMatchObject({
        status: 503,
      });
    });

    it('keyed hashes are never queued: they cost microseconds', async () => {
      const { auth } = make([pile()], { slowVerifications: { concurrency: 1, maxWaiting: 0 } });
      const decisions = await Promise.all(Array.from({ length: 20 }, () => auth.decide(input())));
      expect(decisions.every((d) => d.accepted)).toBe(true);
    });
  });
});

describe('PileRegistryCache', () => {
  it('falls through to the database on a miss and remembers misses briefly', async () => {
    const fake = fakeRepository([]);
    const cache = new PileRegistryCache(fake.repository, { negativeTtlMs: 60_000 });
    expect(await cache.get('CP-NEW')).toBeUndefined();
    expect(await cache.get('CP-NEW')).toBeUndefined();
    expect(fake.finds).toEqual(['CP-NEW']);
  });

  it('picks up rows changed since the last refresh', async () => {
    const fake = fakeRepository([pile({ passwordHash: null })]);
    const cache = new PileRegistryCache(fake.repository);
    await cache.refresh();
    expect((await cache.get('CP-1'))?.state).toBe('active');
    fake.rows[0] = { ...fake.rows[0], state: 'disabled', updatedAt: new Date(2_000) };
    await cache.refresh();
    expect((await cache.get('CP-1'))?.state).toBe('disabled');
    expect(fake.finds).toEqual([]);
  });

  it('remembers a row written by this replica unless it already holds a newer one', async () => {
    const fake = fakeRepository([pile()]);
    const cache = new PileRegistryCache(fake.repository);
    await cache.refresh();
    cache.remember(pile({ state: 'pending', updatedAt: new Date(500) }));
    expect((await cache.get('CP-1'))?.state).toBe('active');
    cache.remember(pile({ state: 'pending', updatedAt: new Date(1_500) }));
    expect((await cache.get('CP-1'))?.state).toBe('pending');
  });
});
