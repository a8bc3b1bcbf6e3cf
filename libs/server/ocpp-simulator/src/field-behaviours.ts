import type { StopReason } from '@voltdepot/shared-ocpp';

/*
 * Pile behaviours seen in the field (issue #23), as the simulator reproduces them: decimal energy
 * registers, samples stamped after the stop, a second StopTransaction for one transaction. The pure parts
 * live here; SimulatedPile applies them.
 */

/** How much the register rises between the stop and a late sample (the gun still drew a trace of power). */
export const LATE_SAMPLE_RISE_WH = { decimal: 0.35, whole: 1 } as const;

/** Default rise of a second StopTransaction's meterStop over the first (6,182 Wh over 86 sessions in the field). */
export const DOUBLE_STOP_EXTRA_WH = 72;

/**
 * The energy register as a sample carries it (OCPP sends a decimal string): whole Wh, or with two
 * decimals, truncated so that it never shows more than the meter counted ("92.49").
 */
export function registerText(meterWh: number, decimal: boolean): string {
  if (!decimal) return String(Math.round(meterWh));
  // The small epsilon keeps 0.29 * 100 = 28.999999999999996 from truncating to 0.28.
  return (Math.floor(meterWh * 100 + 1e-6) / 100).toFixed(2);
}

/**
 * The register as meterStart and meterStop carry it (OCPP integers): a pile with a decimal register
 * rounds it down, so meterStop may be up to 1 Wh below the last decimal sample (195 after 195.26).
 */
export function wholeRegisterWh(meterWh: number, decimal: boolean): number {
  return decimal ? Math.floor(meterWh + 1e-6) : Math.round(meterWh);
}

/** A second StopTransaction of the same transaction: another reason, a higher meterStop, a later time. */
export type DoubleStop = {
  /** Reason of the second stop (default: another one than the first's, see `otherStopReason`). */
  reason?: StopReason;
  /** How much higher its meterStop is (Wh, default DOUBLE_STOP_EXTRA_WH). */
  extraWh?: number;
  /** Its timestamp, this many ms after the first stop's (default 1000). */
  afterMs?: number;
};

/** The second stop a pile sends after its first (`meterStopWh` and `timestamp` are the first's). */
export function secondStop(
  first: { meterStopWh: number; timestamp: string; reason: StopReason },
  double: DoubleStop,
): { meterStopWh: number; timestamp: string; reason: StopReason } {
  return {
    meterStopWh: first.meterStopWh + Math.max(1, Math.round(double.extraWh ?? DOUBLE_STOP_EXTRA_WH)),
    timestamp: new Date(Date.parse(first.timestamp) + (double.afterMs ?? 1_000)).toISOString(),
    reason: double.reason ?? otherStopReason(first.reason),
  };
}

/** A reason other than `reason`, as piles that stop twice report the second time. */
export function otherStopReason(reason: StopReason): StopReason {
  return reason === 'Other' ? 'Local' : 'Other';
}

/** How a pile abandoned a session it never stopped (see SimulatedPile.powerLoss, vanish, forgetSession). */
export type AbandonHow = 'powerLoss' | 'vanished' | 'forgotten';
