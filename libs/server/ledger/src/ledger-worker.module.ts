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
import { consumptionSubscription } from './consumption/consumption.consumer';
import { ConsumptionService } from './consumption/consumption.service';
import { LedgerModule } from './ledger.module';
import { LedgerService, type LedgerOptions } from './ledger.service';

/** The consumption consumer, started in the background and retried while the bus is unreachable. */
@Injectable()
class LedgerConsumers implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('LedgerConsumers');
  private consumer?: StartingConsumer;

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(LedgerService) private readonly ledger: LedgerService,
  ) {}

  onApplicationBootstrap(): void {
    const options = consumptionSubscription(new ConsumptionService(this.ledger));
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
 * The ledger's background work, for the worker process: charging consumption from `order.settled` and
 * `order.amended`. Needs the app's `DataSource` and `EVENT_BUS`.
 */
@Module({})
export class LedgerWorkerModule {
  static forRoot(options: Partial<LedgerOptions> = {}): DynamicModule {
    return {
      module: LedgerWorkerModule,
      imports: [LedgerModule.forRoot(options)],
      providers: [LedgerConsumers],
    };
  }
}
