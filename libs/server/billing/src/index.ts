export * from './pricing/price-plan';
export * from './pricing/session-pricing';
export { zoneOffsetMs, localDay, instantOf } from './pricing/business-time';
