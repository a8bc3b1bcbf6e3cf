import { defineEvent, type DeadLetter } from '@voltdepot/shared-events';
import { currentCorrelationId, runWithCorrelation } from '@voltdepot/server-core';
import { backoffDelay, deliver, DeliveryAborted, resolveRetryPolicy } from './delivery';
import { createEnvelope, parseEnvelope, serializeEnvelope } from './envelope.factory';

const Tick = defineEvent<{ n: number }>()('test.ticks', 'tick', 1);
const noSleep = async () => undefined;

describe('deliver', () => {
  const policy = resolveRetryPolicy({ maxAttempts: 3, initialDelayMs: 100, maxDelayMs: 250 });

  it('runs the handler inside the event correlation id', async () => {
    const envelope = createEnvelope(Tick, 'CP-1', { n: 1 }, { correlationId: 'req-42' });
    let seen: string | undefined;
    await deliver(envelope, async () => void (seen = currentCorrelationId()), 'g', 'p', policy, {
      deadLetter: async () => undefined,
      sleep: noSleep,
    });
    expect(seen).toBe('req-42');
  });

  it('waits with exponential backoff between attempts, capped', async () => {
    const waits: number[] = [];
    const letters: DeadLetter[] = [];
    const envelope = createEnvelope(Tick, 'CP-1', { n: 1 });
    const outcome = await deliver(
      envelope,
      async () => {
        throw new TypeError('boom');
      },
      'billing',
      'pos',
      resolveRetryPolicy({ maxAttempts: 4, initialDelayMs: 100, maxDelayMs: 250 }),
      { deadLetter: async (l) => void letters.push(l), sleep: async (ms) => void waits.push(ms) },
    );
    expect(waits).toEqual([100, 200, 250]);
    expect(outcome).toEqual({ status: 'dead-lettered', attempts: 4 });
    expect(letters).toEqual([
      expect.objectContaining({ envelope, group: 'billing', attempts: 4, error: 'TypeError: boom' }),
    ]);
  });

  it('does not acknowledge when the dead letter cannot be written', async () => {
    const envelope = createEnvelope(Tick, 'CP-1', { n: 1 });
    await expect(
      deliver(envelope, async () => Promise.reject(new Error('x')), 'g', 'p', policy, {
        deadLetter: async () => Promise.reject(new Error('broker down')),
        sleep: noSleep,
      }),
    ).rejects.toThrow('broker down');
  });

  it('stops retrying when the consumer is shutting down', async () => {
    const envelope = createEnvelope(Tick, 'CP-1', { n: 1 });
    let calls = 0;
    await expect(
      deliver(envelope, async () => Promise.reject(new Error(`fail ${++calls}`)), 'g', 'p', policy, {
        deadLetter: async () => undefined,
        sleep: noSleep,
        isStopping: () => calls >= 1,
      }),
    ).rejects.toBeInstanceOf(DeliveryAborted);
    expect(calls).toBe(1);
  });

  it.each([
    [{ maxAttempts: 0 }, 'retry.maxAttempts must be >= 1'],
    [{ initialDelayMs: 500, maxDelayMs: 100 }, 'retry delays are invalid'],
  ])('rejects the retry policy %j', (partial, message) => {
    expect(() => resolveRetryPolicy(partial)).toThrow(message);
  });

  it('computes the delay before each retry', () => {
    expect(
      [1, 2, 3, 4].map((n) => backoffDelay({ maxAttempts: 5, initialDelayMs: 50, maxDelayMs: 300 }, n)),
    ).toEqual([50, 100, 200, 300]);
  });
});

describe('envelopes', () => {
  it('inherit the current correlation id and round-trip through JSON', () => {
    const envelope = runWithCorrelation('http-7', () => createEnvelope(Tick, 'CP-9', { n: 3 }));
    expect(envelope).toMatchObject({
      topic: 'test.ticks',
      key: 'CP-9',
      type: 'tick',
      version: 1,
      correlationId: 'http-7',
    });
    expect(parseEnvelope(serializeEnvelope(envelope))).toEqual(envelope);
  });

  it.each([
    ['not json', 'malformed event: not JSON'],
    ['42', 'malformed event: not an object'],
    ['{"eventId":"x","topic":"t"}', 'malformed event: missing key, type, version, occurredAt, correlationId'],
  ])('refuses the malformed entry %s', (raw, message) => {
    expect(() => parseEnvelope(raw)).toThrow(message);
  });

  it('requires a key', () => {
    expect(() => createEnvelope(Tick, '', { n: 1 })).toThrow('event tick: key is required');
  });
});
