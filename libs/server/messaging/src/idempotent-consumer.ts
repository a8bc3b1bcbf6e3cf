import type { DataSource, EntityManager } from 'typeorm';
import type { EventEnvelope } from '@voltdepot/shared-events';
import type { BatchDeliveryContext, BatchHandler, DeliveryContext, EventHandler } from './bus';

export type TransactionalHandler = (
  envelope: EventEnvelope,
  manager: EntityManager,
  context: DeliveryContext,
) => Promise<void>;

export type TransactionalBatchHandler = (
  envelopes: EventEnvelope[],
  manager: EntityManager,
  context: BatchDeliveryContext,
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

/**
 * The batch form of `idempotent`: one transaction for the whole batch, holding the processed-event
 * marks of all its events (one statement) and the handler's work, so a batch commits entirely or not at
 * all. The handler sees only events not processed before, each event id once, in delivery order; when
 * every event of the batch was processed before, it is not called. The bus acknowledges the batch only
 * after this resolves, i.e. after the commit.
 */
export function idempotentBatch(
  dataSource: DataSource,
  group: string,
  handler: TransactionalBatchHandler,
): BatchHandler {
  return async (envelopes, context) => {
    await dataSource.transaction(async (manager) => {
      // Sorted, so two members racing over the same events (during a rebalance) lock the marks in the
      // same order and one simply waits for the other instead of deadlocking.
      const ids = [...new Set(envelopes.map((e) => e.eventId))].sort();
      const inserted: { event_id: string }[] = await manager.query(
        `INSERT INTO processed_event (consumer_group, event_id) SELECT $1, unnest($2::text[])
         ON CONFLICT DO NOTHING RETURNING event_id`,
        [group, ids],
      );
      const fresh = new Set(inserted.map((row) => row.event_id));
      const todo = envelopes.filter((e) => fresh.delete(e.eventId)); // first copy of each new event
      if (todo.length === 0) return;
      await handler(todo, manager, context);
    });
  };
}
