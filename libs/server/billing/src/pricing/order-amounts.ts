import { applyDiscount, type Discount, type DiscountedPrice } from './discount';
import { STAGE_TYPES, type PricePlanStage } from './price-plan';
import { priceSession, type BandTotals, type MeterReading } from './session-pricing';

/** What an order bills: the payable band amounts and totals, and what its discount took off (fen, Wh). */
export type BilledAmounts = DiscountedPrice & { discountPlanId: number | null };

/**
 * The prices an order is billed with: the plan's stages and the card's discount in force at the session's
 * start (kept on the order as `charging_order.tariff`, so that editing a plan never re-prices it).
 */
export type OrderTariff = { planId: number; stages: PricePlanStage[]; discount: Discount | null };

/** A held (or rejected) order bills nothing. */
export const NOTHING_BILLED: BilledAmounts = {
  discountPlanId: null,
  bands: Object.fromEntries(
    STAGE_TYPES.map((type) => [type, { energyWh: 0, electricityFen: 0, serviceFen: 0 }]),
  ) as BandTotals,
  electricityFen: 0,
  serviceFen: 0,
  totalFen: 0,
  electricityDiscountFen: 0,
  serviceDiscountFen: 0,
};

/**
 * The amounts of a session billed on `readings` (whole Wh, never decreasing: `billableReadings`) with
 * `prices`: priced by stage, then the discount per fee component.
 */
export function billedAmounts(
  prices: OrderTariff,
  readings: MeterReading[],
  timeZone: string,
): BilledAmounts {
  const price = priceSession({ stages: prices.stages }, readings, timeZone);
  if (!prices.discount)
    return {
      discountPlanId: null,
      bands: price.bands,
      electricityFen: price.electricityFen,
      serviceFen: price.serviceFen,
      totalFen: price.totalFen,
      electricityDiscountFen: 0,
      serviceDiscountFen: 0,
    };
  return { discountPlanId: prices.discount.planId, ...applyDiscount(price, prices.discount) };
}
