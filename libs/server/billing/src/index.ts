export * from './pricing/price-plan';
export * from './pricing/session-pricing';
export { zoneOffsetMs, localDay, instantOf } from './pricing/business-time';
export * from './settlement/settlement.service';
export * from './settlement/settlement.repository';
export * from './settlement/settlement.consumer';
export * from './settlement/order-number';
