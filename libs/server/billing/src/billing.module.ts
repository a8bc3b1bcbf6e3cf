import {
  Inject,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EVENT_BUS, type EventBus, type Subscription } from '@voltdepot/server-messaging';
import { DiscountPlanRepository } from './discount-plans/discount-plan.repository';
import { DiscountPlansController } from './discount-plans/discount-plans.controller';
import { DiscountPlansService } from './discount-plans/discount-plans.service';
import { PricePlanRepository } from './price-plans/price-plan.repository';
import { PricePlansController } from './price-plans/price-plans.controller';
import { PricePlansService } from './price-plans/price-plans.service';
import { startSettlementConsumer } from './settlement/settlement.consumer';

/**
 * Price plans API and the settlement consumer. Needs a TypeORM `DataSource` and the `EVENT_BUS`
 * provided by the host app.
 */
@Module({
  controllers: [PricePlansController, DiscountPlansController],
  providers: [
    {
      provide: PricePlanRepository,
      inject: [DataSource],
      useFactory: (ds: DataSource) => new PricePlanRepository(ds),
    },
    {
      provide: PricePlansService,
      inject: [PricePlanRepository],
      useFactory: (r: PricePlanRepository) => new PricePlansService(r),
    },
    {
      provide: DiscountPlanRepository,
      inject: [DataSource],
      useFactory: (ds: DataSource) => new DiscountPlanRepository(ds),
    },
    {
      provide: DiscountPlansService,
      inject: [DiscountPlanRepository],
      useFactory: (r: DiscountPlanRepository) => new DiscountPlansService(r),
    },
  ],
})
export class BillingModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription?: Subscription;
  private stopped = false;
  private starting?: Promise<void>;
  private readonly logger = new Logger('BillingModule');

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(DataSource) private readonly dataSource: DataSource,
  ) {}

  /** Subscribes in the background, retrying, so the api serves (and reports unhealthy) while the bus is down. */
  onApplicationBootstrap(): void {
    this.starting = this.subscribeWithRetry();
  }

  private async subscribeWithRetry(): Promise<void> {
    for (let attempt = 1; !this.stopped; attempt++) {
      try {
        this.subscription = await startSettlementConsumer(this.bus, this.dataSource);
        if (this.stopped) await this.subscription.close();
        return;
      } catch (error) {
        this.logger.warn(`settlement consumer not started (attempt ${attempt}): ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 500 * attempt)));
      }
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.starting;
    await this.subscription?.close();
  }
}
