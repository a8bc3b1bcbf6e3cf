import type { DataSource } from 'typeorm';
import { Topics } from '@voltdepot/shared-events';
import { idempotent, type EventBus, type Subscription } from '@voltdepot/server-messaging';
import { SETTLEMENT_GROUP, SettlementService } from './settlement.service';

/** Subscribe settlement to the gateway's transaction events (one consumer group, exactly-once effects). */
export function startSettlementConsumer(
  bus: EventBus,
  dataSource: DataSource,
  service = new SettlementService(),
): Promise<Subscription> {
  return bus.subscribe({
    topics: [Topics.OcppTransactions],
    group: SETTLEMENT_GROUP,
    handler: idempotent(dataSource, SETTLEMENT_GROUP, (envelope, manager) =>
      service.handle(envelope, manager),
    ),
  });
}
