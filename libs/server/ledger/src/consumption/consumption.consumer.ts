import { Topics } from '@voltdepot/shared-events';
import type { SubscribeOptions } from '@voltdepot/server-messaging';
import { ConsumptionService, LEDGER_CONSUMPTION_GROUP } from './consumption.service';

/**
 * The ledger's consumer of billing's order events. Each posting is its own transaction and idempotent
 * by its key (order number and version), so the consumer keeps no processed-event marks: a redelivered
 * or replayed event, or a batch cut short by a killed process, finds the postings it made and posts
 * the rest. Events of one order come in order (keyed by charge point).
 */
export function consumptionSubscription(service: ConsumptionService): SubscribeOptions {
  return {
    topics: [Topics.Orders],
    group: LEDGER_CONSUMPTION_GROUP,
    maxBatchSize: 200,
    batchHandler: async (envelopes) => {
      for (const envelope of envelopes) if (service.concerns(envelope)) await service.apply(envelope);
    },
  };
}
