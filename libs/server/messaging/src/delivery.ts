import type { DeadLetter, EventEnvelope } from '@voltdepot/shared-events';
import { runWithCorrelation } from '@voltdepot/server-core';
import { DEFAULT_RETRY_POLICY, type EventHandler, type RetryPolicy } from './bus';

export type DeliveryOutcome =
  { status: 'handled'; attempts: number } | { status: 'dead-lettered'; attempts: number };

export type DeliveryDeps = {
  /** Publish the dead letter durably; if this throws, the event must NOT be acknowledged. */
  deadLetter: (letter: DeadLetter) => Promise<void>;
  sleep?: (ms: number) => Promise<void>;
  /** Returns true when the consumer is shutting down: stop retrying, leave the event unacknowledged. */
  isStopping?: () => boolean;
  onError?: (error: unknown, envelope: EventEnvelope, attempt: number) => void;
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

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
