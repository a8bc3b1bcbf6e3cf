import { type DynamicModule, Inject, Injectable, Logger, Module } from '@nestjs/common';
import { EVENT_BUS, WorkerConsumers, type EventBus } from '@voltdepot/server-messaging';
import { consumptionSubscription } from './consumption/consumption.consumer';
import { ConsumptionService } from './consumption/consumption.service';
import { LedgerModule } from './ledger.module';
import { LedgerService, type LedgerOptions } from './ledger.service';

/** The consumption consumer (started in the background, retried while the bus is unreachable). */
@Injectable()
class LedgerConsumers extends WorkerConsumers {
  constructor(
    @Inject(EVENT_BUS) bus: EventBus,
    @Inject(LedgerService) private readonly ledger: LedgerService,
  ) {
    super(bus, new Logger('LedgerConsumers'));
  }

  protected subscriptions() {
    return [consumptionSubscription(new ConsumptionService(this.ledger))];
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
