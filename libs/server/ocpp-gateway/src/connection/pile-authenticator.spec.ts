import argon2 from 'argon2';
import { PileAuthenticator, type HandshakeInput } from './pile-authenticator';
import { PileRegistryCache } from './pile-registry.cache';
import type { PileRecord, PileRegistryRepository } from './pile-registry.repository';

function fakeRepository(rows: PileRecord[]) {
  const finds: string[] = [];
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
  } as unknown as PileRegistryRepository;
  return { repository, finds, rows };
}

const input = (overrides: Partial<HandshakeInput> = {}): HandshakeInput => ({
  chargePointId: 'CP-1',
  endpoint: '/ocpp',
  protocols: new Set(['ocpp1.6']),
  password: Buffer.from('secret'),
  remoteAddress: '10.0.0.1',
  ...overrides,
});

// Production-strength argon2 takes a second or more per hash on a busy 2-core machine.
jest.setTimeout(30_000);

describe('PileAuthenticator', () => {
  let hash: string;
  beforeAll(async () => {
    hash = await argon2.hash('secret', { type: argon2.argon2id });
  });

  const make = (rows: PileRecord[]) => {
    const fake = fakeRepository(rows);
    const unknown: string[] = [];
    const auth = new PileAuthenticator(
      new PileRegistryCache(fake.repository),
      async (id) => void unknown.push(id),
      '/ocpp',
    );
    return { auth, unknown, fake };
  };
  const pile = (overrides: Partial<PileRecord> = {}): PileRecord => ({
    chargePointId: 'CP-1',
    state: 'active',
    passwordHash: hash,
    updatedAt: new Date(),
    ...overrides,
  });

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

  it('404 for an unknown pile, and records the attempt', async () => {
    const { auth, unknown } = make([]);
    expect(await auth.decide(input({ chargePointId: 'CP-X' }))).toMatchObject({
      accepted: false,
      status: 404,
    });
    expect(unknown).toEqual(['CP-X']);
  });

  it('a changed password hash invalidates the remembered verification', async () => {
    const { auth, fake } = make([pile()]);
    expect(await auth.decide(input())).toMatchObject({ accepted: true });
    fake.rows[0] = pile({ passwordHash: await argon2.hash('rotated', { type: argon2.argon2id }) });
    const cache = (auth as unknown as { registry: PileRegistryCache }).registry;
    await cache.start();
    cache.stop();
    expect(await auth.decide(input())).toMatchObject({ accepted: false, status: 401 });
    expect(await auth.decide(input({ password: Buffer.from('rotated') }))).toMatchObject({ accepted: true });
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
    const fake = fakeRepository([
      { chargePointId: 'CP-1', state: 'active', passwordHash: null, updatedAt: new Date(1_000) },
    ]);
    const cache = new PileRegistryCache(fake.repository);
    await cache.refresh();
    expect((await cache.get('CP-1'))?.state).toBe('active');
    fake.rows[0] = { ...fake.rows[0], state: 'disabled', updatedAt: new Date(2_000) };
    await cache.refresh();
    expect((await cache.get('CP-1'))?.state).toBe('disabled');
    expect(fake.finds).toEqual([]);
  });
});
