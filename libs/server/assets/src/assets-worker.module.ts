import { type DynamicModule, Inject, Injectable, Logger, Module } from '@nestjs/common';
import { EVENT_BUS, WorkerConsumers, type EventBus } from '@voltdepot/server-messaging';
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
  ) {
    super(bus, new Logger('AssetsConsumers'));
  }

  protected subscriptions() {
    const service = new IcCardSyncService((work) => this.db.transaction(work), this.cards, this.idTags);
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
