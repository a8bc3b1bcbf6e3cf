import type { DataSource, EntityManager } from 'typeorm';
import type { EventEnvelope } from '@voltdepot/shared-events';
import type { DeliveryContext, EventHandler } from './bus';

export type TransactionalHandler = (
  envelope: EventEnvelope,
  manager: EntityManager,
  context: DeliveryContext,
) => Promise<void>;

/**
 * Wrap a handler so that an event has its effect at most once per consumer group: the processed-event
 * mark and the handler's database work commit in one transaction. A redelivered event finds its mark
 * and is skipped; a handler that fails rolls the mark back so the retry runs it again.
 */
export function idempotent(
  dataSource: DataSource,
  group: string,
  handler: TransactionalHandler,
): EventHandler {
  return async (envelope, context) => {
    await dataSource.transaction(async (manager) => {
      const inserted: unknown[] = await manager.query(
        `INSERT INTO processed_event (consumer_group, event_id) VALUES ($1, $2)
         ON CONFLICT DO NOTHING RETURNING event_id`,
        [group, envelope.eventId],
      );
      if (inserted.length === 0) return; // already processed: no second effect
      await handler(envelope, manager, context);
    });
  };
}
