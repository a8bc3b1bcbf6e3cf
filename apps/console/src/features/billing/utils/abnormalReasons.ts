/** Spec §8 charging-record exception types (`billing.reason.type.<type>`). */
export type AbnormalType =
  | 'lostRecord'
  | 'repeatedRecord'
  | 'electricityMismatch'
  | 'meterDataError'
  | 'socOrderError'
  | 'vehicleMatchFailure'
  | 'socAbnormal';

export type AbnormalReason = {
  /** The exception type, or null for a reason that is no data exception (no price plan in force). */
  type: AbnormalType | null;
  /** `billing.reason.<detail>`. */
  detail: string;
};

/**
 * Settlement writes why an order was held as English sentences, prefixed with the exception type
 * ("meter data error: meter register decreased"); orders held before the prefix carry only the sentence.
 * Each known sentence maps to its exception type and a translated detail. Unknown text is shown as it came.
 */
export const ABNORMAL_REASONS: [RegExp, AbnormalType | null, string][] = [
  [/unknown transaction/, 'lostRecord', 'unknownTransaction'],
  [/^lost record: the start of the transaction did not arrive/, 'lostRecord', 'startMissing'],
  [/stop time is before start time/, 'meterDataError', 'timeError'],
  [/implausible meter values/, 'meterDataError', 'flaggedMeter'],
  [/negative or fractional meter value/, 'meterDataError', 'negativeMeter'],
  [/meter register decreased/, 'meterDataError', 'meterDecreased'],
  [/energy beyond battery capacity/, 'electricityMismatch', 'beyondCapacity'],
  [/^start and end SOC error/, 'socOrderError', 'socFalling'],
  [/^vehicle match failure/, 'vehicleMatchFailure', 'noVehicle'],
  [/SoC out of range/, 'socAbnormal', 'socOutOfRange'],
  [/no price plan in force/, null, 'noPricePlan'],
];

/** The exception type and detail of a held order's reason, or undefined when it is not a known one. */
export function abnormalReasonOf(text: string): AbnormalReason | undefined {
  const found = ABNORMAL_REASONS.find(([pattern]) => pattern.test(text));
  return found ? { type: found[1], detail: found[2] } : undefined;
}
