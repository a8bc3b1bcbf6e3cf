import { Inject, Module, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EVENT_BUS, type EventBus, type Subscription } from '@voltdepot/server-messaging';
import { PricePlanRepository } from './price-plans/price-plan.repository';
import { PricePlansController } from './price-plans/price-plans.controller';
import { PricePlansService } from './price-plans/price-plans.service';
import { startSettlementConsumer } from './settlement/settlement.consumer';

/**
 * Price plans API and the settlement consumer. Needs a TypeORM `DataSource` and the `EVENT_BUS`
 * provided by the host app.
 */
@Module({
  controllers: [PricePlansController],
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
  ],
})
export class BillingModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private subscription?: Subscription;

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(DataSource) private readonly dataSource: DataSource,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await startSettlementConsumer(this.bus, this.dataSource);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.close();
  }
}
