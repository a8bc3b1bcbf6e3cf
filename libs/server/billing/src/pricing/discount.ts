import { STAGE_TYPES } from './price-plan';
import type { BandTotals, SessionPrice } from './session-pricing';

/** Percentages to pay: 95 means the customer pays 95 % (a 5 % discount); 100 means no discount. */
export type Discount = { planId: number; pricePercent: number; servicePercent: number };

export type DiscountedPrice = {
  /** Band amounts after the discount, each rounded half up to the fen. */
  bands: BandTotals;
  electricityFen: number;
  serviceFen: number;
  totalFen: number;
  electricityDiscountFen: number;
  serviceDiscountFen: number;
};

/** fen × percent / 100, rounded half up (exact integer arithmetic). */
export function percentOf(fen: number, percent: number): number {
  return Math.floor((fen * percent * 2 + 100) / 200);
}

/**
 * Apply a discount per fee component to the rounded band amounts: each band's electricity fee is
 * multiplied by the price percentage and its service fee by the service fee percentage, each rounded
 * half up to the fen; the order's amounts are the sums of the discounted bands.
 */
export function applyDiscount(price: SessionPrice, discount: Discount): DiscountedPrice {
  const bands = {} as BandTotals;
  let electricityFen = 0;
  let serviceFen = 0;
  for (const type of STAGE_TYPES) {
    const band = price.bands[type];
    const e = percentOf(band.electricityFen, discount.pricePercent);
    const s = percentOf(band.serviceFen, discount.servicePercent);
    bands[type] = { energyWh: band.energyWh, electricityFen: e, serviceFen: s };
    electricityFen += e;
    serviceFen += s;
  }
  return {
    bands,
    electricityFen,
    serviceFen,
    totalFen: electricityFen + serviceFen,
    electricityDiscountFen: price.electricityFen - electricityFen,
    serviceDiscountFen: price.serviceFen - serviceFen,
  };
}
