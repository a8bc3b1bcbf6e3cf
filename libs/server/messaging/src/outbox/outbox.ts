import type { EntityManager } from 'typeorm';
import type { EventEnvelope } from '@voltdepot/shared-events';

/**
 * Write events into the outbox inside the caller's transaction, so the state change and the event
 * announcing it commit together. The relay publishes them afterwards. Re-adding an event id is a no-op.
 * Any number of events is one short statement.
 */
export async function addToOutbox(
  manager: EntityManager,
  envelopes: EventEnvelope | EventEnvelope[],
): Promise<void> {
  const list = Array.isArray(envelopes) ? envelopes : [envelopes];
  if (!list.length) return;
  // One JSON parameter: node-postgres would escape each payload into an array literal character by
  // character; JSON.stringify is native and PostgreSQL parses the batch in C.
  await manager.query(
    `INSERT INTO outbox_event (event_id, topic, key, type, version, occurred_at, correlation_id, payload)
     SELECT "eventId", topic, key, type, version, "occurredAt", "correlationId", payload
       FROM jsonb_to_recordset($1::jsonb)
         AS r("eventId" uuid, topic text, key text, type text, version int, "occurredAt" timestamptz,
              "correlationId" text, payload jsonb)
     ON CONFLICT (event_id) DO NOTHING`,
    [JSON.stringify(list)],
  );
}
