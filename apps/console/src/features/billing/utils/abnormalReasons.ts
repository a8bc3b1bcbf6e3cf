/**
 * Settlement writes why an order was held as English sentences; the console shows them in the user's
 * language, mapped to the spec's charging-record exception types where one fits. Unknown text is shown
 * as it came.
 */
export const ABNORMAL_REASON_KEYS: [RegExp, string][] = [
  [/^unknown transaction/, 'lostRecord'],
  [/^stop time is before start time/, 'timeError'],
  [/^implausible meter values/, 'meterDataError'],
  [/^negative or fractional meter value/, 'meterDataError'],
  [/^meter register decreased/, 'meterDecreased'],
  [/^energy beyond battery capacity/, 'beyondCapacity'],
  [/^SoC out of range/, 'socAbnormal'],
  [/^no price plan in force/, 'noPricePlan'],
];

/** The `billing.reason.<key>` of a held order's reason, or undefined when it is not a known one. */
export function abnormalReasonKey(text: string): string | undefined {
  return ABNORMAL_REASON_KEYS.find(([pattern]) => pattern.test(text))?.[1];
}
