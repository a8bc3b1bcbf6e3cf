import {
  type DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EVENT_BUS, startConsumer, type EventBus, type StartingConsumer } from '@voltdepot/server-messaging';
import { DiscountPlanRepository } from './discount-plans/discount-plan.repository';
import { DiscountPlansController } from './discount-plans/discount-plans.controller';
import { DiscountPlansService } from './discount-plans/discount-plans.service';
import { occupationSubscription } from './occupation/occupation.consumer';
import { OccupationOrdersController } from './occupation/occupation-orders.controller';
import { OccupationOrdersRepository } from './occupation/occupation-orders.repository';
import { OccupationOrdersService } from './occupation/occupation-orders.service';
import { ChargingOrderQueryRepository } from './orders-query/charging-order-query.repository';
import { ListExportsController } from './orders-query/list-exports.controller';
import { OrdersQueryController } from './orders-query/orders-query.controller';
import { OrdersQueryService } from './orders-query/orders-query.service';
import { OrderOperationsController } from './order-operations/order-operations.controller';
import { OrderOperationsRepository } from './order-operations/order-operations.repository';
import { OrderOperationsService } from './order-operations/order-operations.service';
import { PlanExportsController } from './orders-query/plan-exports.controller';
import { PricePlanRepository } from './price-plans/price-plan.repository';
import { PricePlansController } from './price-plans/price-plans.controller';
import { PricePlansService } from './price-plans/price-plans.service';
import { ReservationRepository } from './reservations/reservation.repository';
import { ReservationsController } from './reservations/reservations.controller';
import { ReservationsService } from './reservations/reservations.service';
import { settlementSubscription } from './settlement/settlement.consumer';
import { LostStopSweeper, lostStopSweepIntervalMs } from './settlement/lost-stop.sweeper';
import { DEFAULT_SETTLEMENT_OPTIONS, SettlementService } from './settlement/settlement.service';
import { BILLING_DATA_SCOPE, type BillingDataScopeProvider } from './shared/data-scope';

export type BillingModuleOptions = {
  /** The caller's data scope (identity's DataScopeService fits), built from the app's DataSource. */
  dataScope: { inject: [typeof DataSource]; useFactory: (db: DataSource) => BillingDataScopeProvider };
  /** Minutes a stop waits for its start before it is held as a lost record (default 10). */
  lostStopMinutes?: number;
};

const BILLING_OPTIONS = Symbol('BILLING_OPTIONS');

/**
 * The settlement and occupation fee consumers. They start in the background and keep retrying while
 * the bus is unreachable (`startConsumer`), so the api serves, and reports the bus down, meanwhile.
 * With them runs the sweep that holds stops whose start never came as lost records.
 */
@Injectable()
class BillingConsumers implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('BillingConsumers');
  private consumers: StartingConsumer[] = [];
  private sweeper?: LostStopSweeper;

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(BILLING_OPTIONS) private readonly options: BillingModuleOptions,
  ) {}

  onApplicationBootstrap(): void {
    const lostStopMinutes = this.options.lostStopMinutes ?? DEFAULT_SETTLEMENT_OPTIONS.lostStopMinutes;
    const settlement = new SettlementService(undefined, { ...DEFAULT_SETTLEMENT_OPTIONS, lostStopMinutes });
    this.sweeper = new LostStopSweeper(this.dataSource, settlement, {
      intervalMs: lostStopSweepIntervalMs(lostStopMinutes),
      onError: (error) => this.logger.warn(`lost stop sweep failed: ${(error as Error).message}`),
    });
    this.sweeper.start();
    this.consumers = [
      settlementSubscription(this.dataSource, settlement),
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
    await Promise.all([...this.consumers.map((c) => c.close()), this.sweeper?.stop()]);
  }
}

/**
 * Price and discount plans, the order screens (order query with totals, session detail with meter
 * series, review of held orders, the log of operator actions on orders), occupation fee orders and reservations (lists by data scope), the
 * xlsx exports of these lists, and the consumers that settle charging sessions and occupation. Needs
 * the app's TypeORM `DataSource` and `EVENT_BUS`.
 */
@Module({})
export class BillingModule {
  static forRoot(options: BillingModuleOptions): DynamicModule {
    return {
      module: BillingModule,
      controllers: [
        PricePlansController,
        DiscountPlansController,
        OrdersQueryController,
        OccupationOrdersController,
        ReservationsController,
        PlanExportsController,
        ListExportsController,
        OrderOperationsController,
      ],
      providers: [
        { provide: BILLING_OPTIONS, useValue: options },
        {
          provide: BILLING_DATA_SCOPE,
          inject: options.dataScope.inject,
          useFactory: options.dataScope.useFactory,
        },
        {
          provide: PricePlanRepository,
          inject: [DataSource],
          useFactory: (ds: DataSource) => new PricePlanRepository(ds),
        },
        {
          provide: PricePlansService,
          inject: [PricePlanRepository, BILLING_DATA_SCOPE],
          useFactory: (r: PricePlanRepository, scopes: BillingDataScopeProvider) =>
            new PricePlansService(r, scopes),
        },
        {
          provide: OrderOperationsService,
          inject: [DataSource, BILLING_DATA_SCOPE],
          useFactory: (ds: DataSource, scopes: BillingDataScopeProvider) =>
            new OrderOperationsService(new OrderOperationsRepository(ds), scopes),
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
        {
          provide: OrdersQueryService,
          inject: [DataSource, BILLING_DATA_SCOPE],
          useFactory: (ds: DataSource, scopes: BillingDataScopeProvider) =>
            new OrdersQueryService(new ChargingOrderQueryRepository(ds), scopes),
        },
        {
          provide: OccupationOrdersService,
          inject: [DataSource, BILLING_DATA_SCOPE],
          useFactory: (ds: DataSource, scopes: BillingDataScopeProvider) =>
            new OccupationOrdersService(new OccupationOrdersRepository(ds), scopes),
        },
        {
          provide: ReservationsService,
          inject: [DataSource, BILLING_DATA_SCOPE],
          useFactory: (ds: DataSource, scopes: BillingDataScopeProvider) =>
            new ReservationsService(new ReservationRepository(ds), scopes),
        },
        BillingConsumers,
      ],
    };
  }
}
