import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The header a correlation id travels in, on requests and responses. */
export const CORRELATION_ID_HEADER = 'x-correlation-id';

const CORRELATION_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

type CorrelationStore = { readonly correlationId: string };

const storage = new AsyncLocalStorage<CorrelationStore>();

/** Runs `fn` (and everything it awaits or schedules) with `correlationId` as the current id. */
export function runWithCorrelation<T>(correlationId: string, fn: () => T): T {
  return storage.run({ correlationId }, fn);
}

/** The id of the request or message being handled, if any. */
export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}

/** A caller-supplied id is trusted only if it is short and plain (it ends up in logs and headers). */
export function isValidCorrelationId(value: unknown): value is string {
  return typeof value === 'string' && CORRELATION_ID_PATTERN.test(value);
}

export function newCorrelationId(): string {
  return randomUUID();
}
