import type { ErrorBody } from '@voltdepot/shared-contracts';

/** A non-2xx answer the request layer rejected with; `body` is the server's error body when it sent one. */
export class RequestError extends Error {
  override readonly name = 'RequestError';

  constructor(
    readonly status: number,
    readonly body: Partial<ErrorBody> | undefined,
    message = body?.message || `HTTP ${status}`,
  ) {
    super(message);
  }
}

/**
 * The fields of an error body `{ code, message, details?, correlationId }` that are really there.
 * An empty or blank message counts as none. Anything that is not an object gives undefined.
 */
export function toErrorBody(value: unknown): Partial<ErrorBody> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const body: Partial<ErrorBody> = {};
  if (typeof record.code === 'string') body.code = record.code;
  if (typeof record.message === 'string' && record.message.trim() !== '') body.message = record.message;
  if (typeof record.correlationId === 'string') body.correlationId = record.correlationId;
  if ('details' in record) body.details = record.details;
  return body;
}
