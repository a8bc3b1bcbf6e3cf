import { connectionRecordOf } from './connection-record';

describe('connectionRecordOf', () => {
  const stored = {
    replicaId: 'gw-1',
    sessionId: 's-1',
    connectedAt: '2026-01-01T00:00:00.000Z',
    lastSeenAt: '2026-01-01T00:05:00.000Z',
    order: '2026-01-01T00:00:00.000Z|000000000000001',
  };

  it('reads the stored hash, without its bookkeeping fields', () => {
    expect(connectionRecordOf(stored)).toEqual({
      replicaId: 'gw-1',
      sessionId: 's-1',
      connectedAt: '2026-01-01T00:00:00.000Z',
      lastSeenAt: '2026-01-01T00:05:00.000Z',
    });
  });

  it('takes the connection time as last seen when none was written', () => {
    const { lastSeenAt: _lastSeenAt, ...firstWrite } = stored;
    expect(connectionRecordOf(firstWrite)?.lastSeenAt).toBe(stored.connectedAt);
  });

  it.each([
    ['missing (HGETALL of no key)', {}],
    ['without replica', { ...stored, replicaId: '' }],
    ['without session', { ...stored, sessionId: '' }],
    ['without connection time', { ...stored, connectedAt: '' }],
  ])('is undefined when the hash is %s', (_what, hash) => expect(connectionRecordOf(hash)).toBeUndefined());
});
