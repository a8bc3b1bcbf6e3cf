import { type DynamicModule, Inject, Injectable, Logger, Module, Optional } from '@nestjs/common';
import { ServiceMetrics } from '@voltdepot/server-core';
import { EVENT_BUS, WorkerConsumers, type EventBus } from '@voltdepot/server-messaging';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { CardRepository } from './cards/card.repository';
import { IdTagRepository } from './cards/id-tag.repository';
import { IcCardSyncService, icCardSyncSubscription } from './cards/ic-card-sync.consumer';

/** The IC-card consumer (started in the background, retried while the bus is unreachable). */
@Injectable()
class AssetsConsumers extends WorkerConsumers {
  constructor(
    @Inject(EVENT_BUS) bus: EventBus,
    @Inject(DataSource) private readonly db: DataSource,
    @Inject(CardRepository) private readonly cards: CardRepository,
    @Inject(IdTagRepository) private readonly idTags: IdTagRepository,
    @Optional() @Inject(ServiceMetrics) private readonly metrics?: ServiceMetrics,
  ) {
    super(bus, new Logger('AssetsConsumers'));
  }

  protected subscriptions() {
    const skipped = this.metrics
      ? new Counter({
          name: 'voltdepot_iccard_cards_skipped_total',
          help: 'IC-card states that got no basic-data charging card (so the pile answers the card Invalid), by reason',
          labelNames: ['reason'],
          registers: [this.metrics.registry],
        })
      : undefined;
    const service = new IcCardSyncService(
      (work) => this.db.transaction(work),
      this.cards,
      this.idTags,
      this.logger,
      (reason) => skipped?.inc({ reason }),
    );
    return [icCardSyncSubscription(service, this.logger)];
  }
}

/**
 * The assets' background work, for the worker process: the basic-data charging cards (and the gateway's
 * id tags) kept from the IC-card area's `iccard.card.changed`. Needs the app's `DataSource` and
 * `EVENT_BUS`.
 */
@Module({})
export class AssetsWorkerModule {
  static forRoot(): DynamicModule {
    return {
      module: AssetsWorkerModule,
      providers: [CardRepository, IdTagRepository, AssetsConsumers],
    };
  }
}
