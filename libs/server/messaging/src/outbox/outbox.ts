import type { EntityManager } from 'typeorm';
import type { EventEnvelope } from '@voltdepot/shared-events';

/**
 * Write events into the outbox inside the caller's transaction, so the state change and the event
 * announcing it commit together. The relay publishes them afterwards. Re-adding an event id is a no-op.
 */
export async function addToOutbox(
  manager: EntityManager,
  envelopes: EventEnvelope | EventEnvelope[],
): Promise<void> {
  const list = Array.isArray(envelopes) ? envelopes : [envelopes];
  if (!list.length) return;
  const values: unknown[] = [];
  const rows = list.map((e, i) => {
    values.push(
      e.eventId,
      e.topic,
      e.key,
      e.type,
      e.version,
      e.occurredAt,
      e.correlationId,
      JSON.stringify(e.payload),
    );
    const o = i * 8;
    return `($${o + 1}, $${o + 2}, $${o + 3}, $${o + 4}, $${o + 5}, $${o + 6}, $${o + 7}, $${o + 8}::jsonb)`;
  });
  await manager.query(
    `INSERT INTO outbox_event (event_id, topic, key, type, version, occurred_at, correlation_id, payload)
     VALUES ${rows.join(', ')} ON CONFLICT (event_id) DO NOTHING`,
    values,
  );
}
