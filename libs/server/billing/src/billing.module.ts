import { type DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OUTBOX_RELAY, type OutboxRelay } from '@voltdepot/server-messaging';
import { DiscountPlanRepository } from './discount-plans/discount-plan.repository';
import { DiscountPlansController } from './discount-plans/discount-plans.controller';
import { DiscountPlansService } from './discount-plans/discount-plans.service';
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
import { OrderReviewController } from './order-review/order-review.controller';
import { OrderReviewService } from './order-review/order-review.service';
import { OrderVersionRepository } from './order-review/order-version.repository';
import { PlanExportsController } from './orders-query/plan-exports.controller';
import { PricePlanRepository } from './price-plans/price-plan.repository';
import { PricePlansController } from './price-plans/price-plans.controller';
import { PricePlansService } from './price-plans/price-plans.service';
import { ReservationRepository } from './reservations/reservation.repository';
import { ReservationsController } from './reservations/reservations.controller';
import { ReservationsService } from './reservations/reservations.service';
import { BILLING_DATA_SCOPE, type BillingDataScopeProvider } from './shared/data-scope';

export type BillingModuleOptions = {
  /** The caller's data scope (identity's DataScopeService fits), built from the app's DataSource. */
  dataScope: { inject: [typeof DataSource]; useFactory: (db: DataSource) => BillingDataScopeProvider };
};

/**
 * Billing's HTTP side: price and discount plans, the order screens (order query with totals, session
 * detail with meter series and versions, review and amendment of orders, the log of operator actions on
 * orders: review and amendment write versions announced by `order.amended`), occupation
 * fee orders and reservations (lists by data scope) and the xlsx exports of these lists. Needs the app's
 * TypeORM `DataSource`. The settlement of sessions and occupation runs in the worker
 * (`BillingWorkerModule`).
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
        OrderReviewController,
        OccupationOrdersController,
        ReservationsController,
        PlanExportsController,
        ListExportsController,
        OrderOperationsController,
      ],
      providers: [
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
          provide: OrderReviewService,
          inject: [DataSource, BILLING_DATA_SCOPE, { token: OUTBOX_RELAY, optional: true }],
          useFactory: (ds: DataSource, scopes: BillingDataScopeProvider, relay?: OutboxRelay) =>
            new OrderReviewService(new OrderVersionRepository(ds), scopes, relay),
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
      ],
    };
  }
}
