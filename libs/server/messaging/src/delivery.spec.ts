import { defineEvent, type DeadLetter } from '@voltdepot/shared-events';
import { currentCorrelationId, runWithCorrelation } from '@voltdepot/server-core';
import {
  backoffDelay,
  checkSubscribeOptions,
  deliver,
  deliverBatch,
  DeliveryAborted,
  resolveRetryPolicy,
} from './delivery';
import type { EventEnvelope } from '@voltdepot/shared-events';
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

describe('deliverBatch', () => {
  const policy = resolveRetryPolicy({ maxAttempts: 2, initialDelayMs: 10, maxDelayMs: 10 });
  const ticks = (ns: number[]) => ns.map((n) => createEnvelope(Tick, 'CP-1', { n }));
  const place = (events: EventEnvelope[]) => ({
    group: 'g',
    partition: 'test.ticks/3',
    positions: events.map((_, i) => `p${i}`),
  });
  const nOf = (events: EventEnvelope[]) => events.map((e) => (e.payload as { n: number }).n);

  it('hands the whole batch over once and acknowledges all of it', async () => {
    const events = ticks([1, 2, 3]);
    const calls: { ns: number[]; partition: string; position: string }[] = [];
    const outcome = await deliverBatch(
      events,
      async (batch, context) =>
        void calls.push({ ns: nOf(batch), partition: context.partition, position: context.position }),
      place(events),
      policy,
      { deadLetter: async () => undefined, sleep: noSleep },
    );
    expect(outcome).toEqual({ acknowledged: 3 });
    expect(calls).toEqual([{ ns: [1, 2, 3], partition: 'test.ticks/3', position: 'p0' }]);
  });

  it('after a failed batch delivers one event at a time and dead-letters only the one that keeps failing', async () => {
    const events = ticks([1, 2, 3]);
    const calls: number[][] = [];
    const letters: DeadLetter[] = [];
    const batchErrors: number[] = [];
    const outcome = await deliverBatch(
      events,
      async (batch) => {
        calls.push(nOf(batch));
        if (nOf(batch).includes(2)) throw new Error('poison 2');
      },
      place(events),
      policy,
      {
        deadLetter: async (l) => void letters.push(l),
        sleep: noSleep,
        onBatchError: (_e, size) => void batchErrors.push(size),
      },
    );
    expect(outcome).toEqual({ acknowledged: 3 });
    expect(calls).toEqual([[1, 2, 3], [1], [2], [2], [3]]);
    expect(batchErrors).toEqual([3]);
    expect(letters).toEqual([
      expect.objectContaining({ envelope: events[1], attempts: 2, error: 'Error: poison 2' }),
    ]);
  });

  it('stops between events when the consumer is stopping, acknowledging only what was handled', async () => {
    const events = ticks([1, 2, 3]);
    let stopping = false;
    const outcome = await deliverBatch(
      events,
      async (batch) => {
        if (batch.length > 1) throw new Error('busy');
        stopping = true; // shutdown begins while the first single event is handled
      },
      place(events),
      policy,
      { deadLetter: async () => undefined, sleep: noSleep, isStopping: () => stopping },
    );
    expect(outcome).toEqual({ acknowledged: 1 });
  });

  it('leaves the rest unacknowledged with the error when a dead letter cannot be written', async () => {
    const events = ticks([1, 2, 3]);
    const outcome = await deliverBatch(
      events,
      async (batch) => {
        if (nOf(batch).includes(2)) throw new Error('poison');
      },
      place(events),
      policy,
      { deadLetter: async () => Promise.reject(new Error('broker down')), sleep: noSleep },
    );
    expect(outcome.acknowledged).toBe(1);
    expect(outcome.error).toEqual(new Error('broker down'));
  });

  it('runs each event of a failed batch inside its own correlation id', async () => {
    const events = [
      createEnvelope(Tick, 'CP-1', { n: 1 }, { correlationId: 'a' }),
      createEnvelope(Tick, 'CP-1', { n: 2 }, { correlationId: 'b' }),
    ];
    const seen: (string | undefined)[] = [];
    await deliverBatch(
      events,
      async (batch) => {
        if (batch.length > 1) throw new Error('split');
        seen.push(currentCorrelationId());
      },
      place(events),
      policy,
      { deadLetter: async () => undefined, sleep: noSleep },
    );
    expect(seen).toEqual(['a', 'b']);
  });
});

describe('checkSubscribeOptions', () => {
  const handler = async () => undefined;
  it.each([
    [{ topics: [], group: 'g', handler }, 'subscribe: at least one topic is required'],
    [{ topics: ['t'], group: '', handler }, 'subscribe: group is required'],
    [{ topics: ['t'], group: 'g' }, 'subscribe: give either a handler or a batchHandler'],
    [
      { topics: ['t'], group: 'g', handler, batchHandler: handler },
      'subscribe: give either a handler or a batchHandler',
    ],
    [
      { topics: ['t'], group: 'g', batchHandler: handler, maxBatchSize: 0 },
      'maxBatchSize must be a whole number from 1 to 10000',
    ],
    [{ topics: ['t'], group: 'g', handler, retry: { maxAttempts: 0 } }, 'retry.maxAttempts must be >= 1'],
  ])('refuses %j', (options, message) => {
    expect(() => checkSubscribeOptions(options as never)).toThrow(message);
  });

  it('accepts a batch subscription', () => {
    expect(() =>
      checkSubscribeOptions({ topics: ['t'], group: 'g', batchHandler: handler, maxBatchSize: 500 }),
    ).not.toThrow();
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
