import type { DataSource } from 'typeorm';
import { Topics } from '@voltdepot/shared-events';
import {
  idempotentBatch,
  type EventBus,
  type SubscribeOptions,
  type Subscription,
} from '@voltdepot/server-messaging';
import { SETTLEMENT_GROUP, SettlementService } from './settlement.service';

/** Events of one partition settled per transaction (one commit for up to this many events). */
export const SETTLEMENT_BATCH_SIZE = 200;

/**
 * Settlement as a consumer of the gateway's transaction events: one consumer group, batches of one
 * partition handled in one transaction with their processed-event marks (exactly-once effects).
 * `afterCommit` runs once a batch has committed (the worker nudges its outbox relay with it, so the
 * batch's `order.settled` events leave at once).
 */
export function settlementSubscription(
  dataSource: DataSource,
  service = new SettlementService(),
  afterCommit?: () => void,
): SubscribeOptions {
  const settle = idempotentBatch(dataSource, SETTLEMENT_GROUP, (envelopes, manager) =>
    service.handleBatch(envelopes, manager),
  );
  return {
    topics: [Topics.OcppTransactions],
    group: SETTLEMENT_GROUP,
    maxBatchSize: SETTLEMENT_BATCH_SIZE,
    batchHandler: async (envelopes, context) => {
      await settle(envelopes, context);
      afterCommit?.();
    },
  };
}

/** Subscribe settlement now (fails if the bus is unreachable; the api uses `startConsumer` instead). */
export function startSettlementConsumer(
  bus: EventBus,
  dataSource: DataSource,
  service = new SettlementService(),
): Promise<Subscription> {
  return bus.subscribe(settlementSubscription(dataSource, service));
}
