import {
  type DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  Optional,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobsModule } from '@voltdepot/server-jobs';
import {
  EVENT_BUS,
  OUTBOX_RELAY,
  startConsumer,
  type EventBus,
  type OutboxRelay,
  type StartingConsumer,
} from '@voltdepot/server-messaging';
import { occupationSubscription } from './occupation/occupation.consumer';
import { LostStopSweepHandler, lostStopSweepJob } from './settlement/lost-stop-sweep.job';
import { settlementSubscription } from './settlement/settlement.consumer';
import { DEFAULT_SETTLEMENT_OPTIONS, SettlementService } from './settlement/settlement.service';

export type BillingWorkerOptions = {
  /** Minutes a stop waits for its start before it is held as a lost record (default 10). */
  lostStopMinutes?: number;
};

/**
 * The settlement and occupation fee consumers. They start in the background and keep retrying while
 * the bus is unreachable (`startConsumer`), so the worker runs, and reports the bus down, meanwhile.
 */
@Injectable()
class BillingConsumers implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('BillingConsumers');
  private consumers: StartingConsumer[] = [];

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(SettlementService) private readonly settlement: SettlementService,
    @Optional() @Inject(OUTBOX_RELAY) private readonly relay?: OutboxRelay,
  ) {}

  onApplicationBootstrap(): void {
    this.consumers = [
      settlementSubscription(this.dataSource, this.settlement, () => this.relay?.nudge()),
      occupationSubscription(this.dataSource),
    ].map((options) =>
      startConsumer(this.bus, options, {
        onRetry: (error, attempt, delayMs) =>
          this.logger.warn(
            `${options.group} consumer not started (attempt ${attempt}, next in ${delayMs} ms): ${(error as Error).message}`,
          ),
      }),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.consumers.map((c) => c.close()));
  }
}

/**
 * Billing's background work, for the worker process: the consumers that settle charging sessions into
 * orders (announced as `order.settled` through the outbox) and occupation into fee orders, and the
 * scheduled sweep that holds stops whose start never came as lost records. Needs the app's
 * `DataSource`, `EVENT_BUS` (MessagingModule, whose relay publishes the orders' events) and
 * `JobsModule.forRoot`.
 */
@Module({})
export class BillingWorkerModule {
  static forRoot(options: BillingWorkerOptions = {}): DynamicModule {
    const lostStopMinutes = options.lostStopMinutes ?? DEFAULT_SETTLEMENT_OPTIONS.lostStopMinutes;
    return {
      module: BillingWorkerModule,
      imports: [JobsModule.forFeature([lostStopSweepJob(lostStopMinutes)])],
      providers: [
        {
          provide: SettlementService,
          useFactory: () =>
            new SettlementService(undefined, { ...DEFAULT_SETTLEMENT_OPTIONS, lostStopMinutes }),
        },
        BillingConsumers,
        LostStopSweepHandler,
      ],
    };
  }
}
