/** A station's fee settings for a gun left occupied after charging (business-areas §3, station fee settings). */
export type OccupationFeeSettings = {
  /** Whether the station charges occupation fees at all. */
  enabled: boolean;
  /** `internal` (the operator's own fleet) or `external`; recorded on the order, it does not change the amount. */
  feeScope: 'internal' | 'external';
  /** Minutes after the stop that are free. */
  freeMinutes: number;
  /** The fee is charged per started interval of this many minutes beyond the free minutes. */
  intervalMinutes: number;
  /** Fen per started interval. */
  unitPriceFen: number;
  /** Most one occupation may cost, in fen; 0 means no cap. */
  cappedAmountFen: number;
};

export type OccupationFee = {
  /** How long the gun stayed occupied after the stop (ms, never negative). */
  occupiedMs: number;
  /** Started intervals beyond the free minutes. */
  billableIntervals: number;
  amountFen: number;
};

const MINUTE = 60_000;

/**
 * The occupation fee of a gun occupied from the stop (`from`) until it was released (`to`): every
 * started interval beyond the free minutes costs the unit price, and the total is capped. Exact in
 * integers: no rounding other than "a started interval counts whole".
 */
export function occupationFee(settings: OccupationFeeSettings, from: Date, to: Date): OccupationFee {
  if (!Number.isInteger(settings.intervalMinutes) || settings.intervalMinutes < 1)
    throw new Error('occupation interval must be a whole number of minutes >= 1');
  const occupiedMs = Math.max(0, to.getTime() - from.getTime());
  const beyondFreeMs = occupiedMs - settings.freeMinutes * MINUTE;
  const billableIntervals =
    settings.enabled && beyondFreeMs > 0 ? Math.ceil(beyondFreeMs / (settings.intervalMinutes * MINUTE)) : 0;
  const uncapped = billableIntervals * settings.unitPriceFen;
  const amountFen = settings.cappedAmountFen > 0 ? Math.min(uncapped, settings.cappedAmountFen) : uncapped;
  return { occupiedMs, billableIntervals, amountFen };
}
