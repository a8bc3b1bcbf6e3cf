import type { EntityManager } from 'typeorm';
import type { EventEnvelope } from '@voltdepot/shared-events';

/**
 * Write events into the outbox inside the caller's transaction, so the state change and the event
 * announcing it commit together. The relay publishes them afterwards. Re-adding an event id is a no-op.
 * Any number of events is one short statement (a typed array per column).
 */
export async function addToOutbox(
  manager: EntityManager,
  envelopes: EventEnvelope | EventEnvelope[],
): Promise<void> {
  const list = Array.isArray(envelopes) ? envelopes : [envelopes];
  if (!list.length) return;
  await manager.query(
    `INSERT INTO outbox_event (event_id, topic, key, type, version, occurred_at, correlation_id, payload)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::int[], $6::timestamptz[],
                          $7::text[], $8::jsonb[])
     ON CONFLICT (event_id) DO NOTHING`,
    [
      list.map((e) => e.eventId),
      list.map((e) => e.topic),
      list.map((e) => e.key),
      list.map((e) => e.type),
      list.map((e) => e.version),
      list.map((e) => e.occurredAt),
      list.map((e) => e.correlationId),
      list.map((e) => JSON.stringify(e.payload)),
    ],
  );
}
