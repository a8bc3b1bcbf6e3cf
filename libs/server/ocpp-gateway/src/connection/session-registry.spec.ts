import type Redis from 'ioredis';
import type { PileSession } from './pile-session';
import { SessionRegistry } from './session-registry';

/** A Redis whose `eval` answers from a queue the test fills: a value, an error, or a pending promise. */
function fakeRedis(): { redis: Redis; answers: (() => Promise<unknown>)[] } {
  const answers: (() => Promise<unknown>)[] = [];
  const redis = { eval: () => (answers.shift() ?? (() => Promise.resolve(1)))() } as unknown as Redis;
  return { redis, answers };
}

let sequence = 0;
const session = (): PileSession =>
  ({
    sessionId: `s${++sequence}`,
    chargePointId: 'CP-1',
    connectedAt: new Date(),
    sequence,
  }) as PileSession;

describe('SessionRegistry.register', () => {
  it('keeps the previous connection as the local one when Redis fails to register a new one', async () => {
    const { redis, answers } = fakeRedis();
    const registry = new SessionRegistry(redis, { replicaId: 'r1', prefix: 'test' });
    const old = session();
    await registry.register(old);
    answers.push(() => Promise.reject(new Error('Redis down')));
    await expect(registry.register(session())).rejects.toThrow('Redis down');
    expect(registry.get('CP-1')).toBe(old);
  });

  it('does not bring back a connection that closed while a newer one lost to another replica', async () => {
    const { redis, answers } = fakeRedis();
    const registry = new SessionRegistry(redis, { replicaId: 'r1', prefix: 'test' });
    const old = session();
    await registry.register(old);
    let answer!: (taken: number) => void;
    answers.push(() => new Promise((resolve) => (answer = resolve)));
    const registering = registry.register(session());
    await registry.release(old); // the old connection closes meanwhile
    answer(0); // another replica holds a newer connection of the pile
    expect(await registering).toEqual({ superseded: true });
    expect(registry.get('CP-1')).toBeUndefined();
    expect(registry.size).toBe(0);
  });

  it('gives the place back to the previous connection, still open, when another replica holds a newer one', async () => {
    const { redis, answers } = fakeRedis();
    const registry = new SessionRegistry(redis, { replicaId: 'r1', prefix: 'test' });
    const old = session();
    await registry.register(old);
    answers.push(() => Promise.resolve(0));
    expect(await registry.register(session())).toEqual({ superseded: true });
    expect(registry.get('CP-1')).toBe(old);
  });
});
