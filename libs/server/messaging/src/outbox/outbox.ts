import type { EntityManager } from 'typeorm';
import type { EventEnvelope } from '@voltdepot/shared-events';
import { envelopesOutboxInsert } from './outbox-insert';

const ENVELOPES = envelopesOutboxInsert(1);

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
  await manager.query(ENVELOPES.sql, [ENVELOPES.value(list)]);
}
