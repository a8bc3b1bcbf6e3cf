import type { DataSource } from 'typeorm';
import { Topics } from '@voltdepot/shared-events';
import type { SubscribeOptions } from '@voltdepot/server-messaging';
import { OCCUPATION_GROUP, OccupationService } from './occupation.service';

/**
 * The occupation fee consumer: stops (transactions topic) and connector statuses (status topic), a
 * batch per partition in one transaction. Its writes are idempotent by their own keys, so it keeps no
 * processed-event marks (it reads every meter value event of the transactions topic and would
 * otherwise mark each one).
 */
export function occupationSubscription(
  dataSource: DataSource,
  service = new OccupationService(),
): SubscribeOptions {
  return {
    topics: [Topics.OcppStatus, Topics.OcppTransactions],
    group: OCCUPATION_GROUP,
    maxBatchSize: 200,
    batchHandler: async (envelopes) => {
      const relevant = envelopes.filter((e) => service.concerns(e));
      // Most transaction events (starts, meter values) are not about occupation: no transaction for them.
      if (relevant.length) await dataSource.transaction((m) => service.handleBatch(relevant, m));
    },
  };
}
