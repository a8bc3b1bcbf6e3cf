import {
  type DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { EVENT_BUS, startConsumer, type EventBus, type StartingConsumer } from '@voltdepot/server-messaging';
import { DataSource } from 'typeorm';
import { CardRepository } from './cards/card.repository';
import { IdTagRepository } from './cards/id-tag.repository';
import { IcCardSyncService, icCardSyncSubscription } from './cards/ic-card-sync.consumer';

/** The IC-card consumer, started in the background and retried while the bus is unreachable. */
@Injectable()
class AssetsConsumers implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AssetsConsumers');
  private consumer?: StartingConsumer;

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(DataSource) private readonly db: DataSource,
    @Inject(CardRepository) private readonly cards: CardRepository,
    @Inject(IdTagRepository) private readonly idTags: IdTagRepository,
  ) {}

  onApplicationBootstrap(): void {
    const service = new IcCardSyncService((work) => this.db.transaction(work), this.cards, this.idTags);
    const options = icCardSyncSubscription(service, this.logger);
    this.consumer = startConsumer(this.bus, options, {
      onRetry: (error, attempt, delayMs) =>
        this.logger.warn(
          `${options.group} consumer not started (attempt ${attempt}, next in ${delayMs} ms): ${(error as Error).message}`,
        ),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.close();
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
