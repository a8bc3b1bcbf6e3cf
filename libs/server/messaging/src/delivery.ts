import type { DeadLetter, EventEnvelope } from '@voltdepot/shared-events';
import { runWithCorrelation } from '@voltdepot/server-core';
import {
  DEFAULT_RETRY_POLICY,
  type BatchHandler,
  type EventHandler,
  type RetryPolicy,
  type SubscribeOptions,
} from './bus';

export type DeliveryOutcome =
  { status: 'handled'; attempts: number } | { status: 'dead-lettered'; attempts: number };

export type DeliveryDeps = {
  /** Publish the dead letter durably; if this throws, the event must NOT be acknowledged. */
  deadLetter: (letter: DeadLetter) => Promise<void>;
  sleep?: (ms: number) => Promise<void>;
  /** Returns true when the consumer is shutting down: stop retrying, leave the event unacknowledged. */
  isStopping?: () => boolean;
  onError?: (error: unknown, envelope: EventEnvelope, attempt: number) => void;
  /** A whole batch failed (it is then delivered one event at a time). */
  onBatchError?: (error: unknown, size: number) => void;
};

export class DeliveryAborted extends Error {
  constructor() {
    super('delivery aborted: consumer is stopping');
  }
}

export function resolveRetryPolicy(partial?: Partial<RetryPolicy>): RetryPolicy {
  const policy = { ...DEFAULT_RETRY_POLICY, ...partial };
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1)
    throw new Error('retry.maxAttempts must be >= 1');
  if (policy.initialDelayMs < 0 || policy.maxDelayMs < policy.initialDelayMs)
    throw new Error('retry delays are invalid');
  return policy;
}

/** The checks every driver makes before subscribing, with a precise message. */
export function checkSubscribeOptions(options: SubscribeOptions): void {
  if (!options.topics.length) throw new Error('subscribe: at least one topic is required');
  if (!options.group) throw new Error('subscribe: group is required');
  if (!options.handler === !options.batchHandler)
    throw new Error('subscribe: give either a handler or a batchHandler');
  if (options.batchHandler) resolveBatchSize(options.maxBatchSize);
  resolveRetryPolicy(options.retry);
}

/** Events per batch: `requested` when given (a whole number from 1 to 10,000), else 100. */
export function resolveBatchSize(requested?: number): number {
  const size = requested ?? 100;
  if (!Number.isInteger(size) || size < 1 || size > 10_000)
    throw new Error('maxBatchSize must be a whole number from 1 to 10000');
  return size;
}

export function backoffDelay(policy: RetryPolicy, failedAttempt: number): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (failedAttempt - 1));
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Run a handler for one event: retry with exponential backoff, then dead-letter.
 * Resolves when the event may be acknowledged; rejects (DeliveryAborted or the dead-letter error)
 * when it must stay unacknowledged so that it is delivered again.
 */
export async function deliver(
  envelope: EventEnvelope,
  handler: EventHandler,
  group: string,
  position: string,
  policy: RetryPolicy,
  deps: DeliveryDeps,
): Promise<DeliveryOutcome> {
  const sleep = deps.sleep ?? defaultSleep;
  let lastError: unknown;
  for (let attempt = 1; attempt <= policy.maxAttempts; attempt++) {
    if (attempt > 1) {
      if (deps.isStopping?.()) throw new DeliveryAborted();
      await sleep(backoffDelay(policy, attempt - 1));
      if (deps.isStopping?.()) throw new DeliveryAborted();
    }
    try {
      // Logs written while handling carry the correlation id of the request that caused the event.
      await runWithCorrelation(envelope.correlationId, () => handler(envelope, { attempt, group, position }));
      return { status: 'handled', attempts: attempt };
    } catch (error) {
      lastError = error;
      deps.onError?.(error, envelope, attempt);
    }
  }
  await deps.deadLetter({
    envelope,
    group,
    attempts: policy.maxAttempts,
    error: describeError(lastError),
    failedAt: new Date().toISOString(),
  });
  return { status: 'dead-lettered', attempts: policy.maxAttempts };
}

export type BatchDeliveryOutcome = {
  /** How many events, from the start of the batch, were handled or dead-lettered: acknowledge those. */
  acknowledged: number;
  /** Dead-lettering failed: the events from `acknowledged` on stay unacknowledged; rethrow this. */
  error?: unknown;
};

export type BatchPlace = {
  group: string;
  /** `topic/partition` the batch comes from. */
  partition: string;
  /** Driver-specific position of each event, for logs. */
  positions: string[];
};

/**
 * Run a batch handler for events of one partition. The whole batch gets one attempt; if it fails (its
 * transaction rolled back), the events are delivered one at a time through `deliver`, each with the
 * retry policy and its own dead letter, so a poison event parks only itself. Stops early, leaving the
 * rest unacknowledged, when the consumer is shutting down or a dead letter cannot be written.
 */
export async function deliverBatch(
  envelopes: EventEnvelope[],
  handler: BatchHandler,
  place: BatchPlace,
  policy: RetryPolicy,
  deps: DeliveryDeps,
): Promise<BatchDeliveryOutcome> {
  const { group, partition, positions } = place;
  if (envelopes.length === 0) return { acknowledged: 0 };
  if (envelopes.length > 1) {
    try {
      await handler(envelopes, { attempt: 1, group, partition, position: positions[0] });
      return { acknowledged: envelopes.length };
    } catch (error) {
      deps.onBatchError?.(error, envelopes.length);
    }
  }
  for (let i = 0; i < envelopes.length; i++) {
    if (deps.isStopping?.()) return { acknowledged: i };
    try {
      await deliver(
        envelopes[i],
        (envelope, context) => handler([envelope], { ...context, partition }),
        group,
        positions[i],
        policy,
        deps,
      );
    } catch (error) {
      return error instanceof DeliveryAborted ? { acknowledged: i } : { acknowledged: i, error };
    }
  }
  return { acknowledged: envelopes.length };
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
