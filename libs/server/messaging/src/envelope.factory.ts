import { randomUUID } from 'node:crypto';
import type { EventDefinition, EventEnvelope } from '@voltdepot/shared-events';
import { currentCorrelationId } from '@voltdepot/server-core';

export type EnvelopeOptions = { eventId?: string; occurredAt?: Date | string; correlationId?: string };

/** Build a typed envelope for a defined event. */
export function createEnvelope<TType extends string, TPayload>(
  definition: EventDefinition<TType, TPayload>,
  key: string,
  payload: TPayload,
  options: EnvelopeOptions = {},
): EventEnvelope<TPayload, TType> {
  if (!key) throw new Error(`event ${definition.type}: key is required`);
  const occurredAt = options.occurredAt ?? new Date();
  return {
    eventId: options.eventId ?? randomUUID(),
    topic: definition.topic,
    key,
    type: definition.type,
    version: definition.version,
    occurredAt: typeof occurredAt === 'string' ? occurredAt : occurredAt.toISOString(),
    // By default an event inherits the correlation id of the request or event being handled.
    correlationId: options.correlationId ?? currentCorrelationId() ?? randomUUID(),
    payload,
  };
}

const REQUIRED: (keyof EventEnvelope)[] = [
  'eventId',
  'topic',
  'key',
  'type',
  'version',
  'occurredAt',
  'correlationId',
];

/** Parse an envelope read from a broker; throws a precise error for anything malformed. */
export function parseEnvelope(raw: string | Buffer): EventEnvelope {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString());
  } catch (error) {
    throw new Error(`malformed event: not JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null) throw new Error('malformed event: not an object');
  const missing = REQUIRED.filter((field) => (value as Record<string, unknown>)[field] === undefined);
  if (missing.length) throw new Error(`malformed event: missing ${missing.join(', ')}`);
  return value as EventEnvelope;
}

export function serializeEnvelope(envelope: EventEnvelope): string {
  return JSON.stringify(envelope);
}
