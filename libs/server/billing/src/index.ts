export * from './pricing/price-plan';
export * from './pricing/session-pricing';
export { zoneOffsetMs, localDay, instantOf } from './pricing/business-time';
export * from './settlement/settlement.service';
export * from './settlement/settlement.repository';
export * from './settlement/settlement.consumer';
export * from './settlement/lost-stop-sweep.job';
export * from './settlement/order-number';
export * from './billing.module';
export * from './billing-worker.module';
export * from './price-plans/price-plans.service';
export * from './price-plans/price-plans.exception';
export * from './price-plans/dto/price-plan.dto';
export { PRICE_PLAN_PERMISSIONS } from './price-plans/price-plans.controller';
export * from './pricing/discount';
export * from './discount-plans/discount-plans.service';
export * from './discount-plans/discount-plans.exception';
export * from './discount-plans/dto/discount-plan.dto';
export { DISCOUNT_PLAN_PERMISSIONS } from './discount-plans/discount-plans.controller';
export * from './shared/data-scope';
export * from './occupation/occupation-fee';
export * from './occupation/occupation.service';
export * from './occupation/occupation.consumer';
export {
  occupationOrderQuerySchema,
  type OccupationOrderQuery,
  type OccupationOrderRow,
  type OccupationOrderView,
  type OccupationOrderPage,
} from './occupation/dto/occupation-order.dto';
export { OCCUPATION_ORDER_PERMISSIONS } from './occupation/occupation-orders.controller';
export * from './reservations/dto/reservation.dto';
export { RESERVATION_PERMISSIONS } from './reservations/reservations.controller';
export * from './order-operations/dto/order-operation.dto';
export { ORDER_OPERATION_PERMISSIONS } from './order-operations/order-operations.controller';
export type {
  ChargingOrderDetail,
  ChargingOrderPage,
  ChargingOrderRow,
  ChargingOrderTotals,
  OrderBandRow,
  OrderFilterOptions,
  OrderLogEntry,
} from './orders-query/dto/order-query.dto';
export {
  businessDayOf,
  OrderFiguresReader,
  type BusinessDay,
  type OrderFigures,
} from './orders-query/order-figures.reader';
