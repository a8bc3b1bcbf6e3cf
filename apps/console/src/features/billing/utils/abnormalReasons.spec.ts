import { describe, expect, it } from 'vitest';
import { billingEnUS, billingZhCN } from '../locales';
import { ABNORMAL_REASONS, abnormalReasonOf } from './abnormalReasons';

describe('abnormal reasons', () => {
  it.each([
    // As settlement writes them now (type prefix) ...
    [
      'lost record: unknown transaction, a stop without a start (quarantined for reconciliation)',
      'lostRecord',
    ],
    ['lost record: the start of the transaction did not arrive within 10 minutes of its stop', 'lostRecord'],
    ['meter data error: stop time is before start time', 'meterDataError'],
    ['meter data error: implausible meter values reported by the pile', 'meterDataError'],
    ['meter data error: negative or fractional meter value', 'meterDataError'],
    ['meter data error: meter register decreased', 'meterDataError'],
    [
      "electricity not matching meter: energy beyond battery capacity (120001 Wh > 120 % of 闽A1's 100000 Wh)",
      'electricityMismatch',
    ],
    ['start and end SOC error: start SoC 80 % is above end SoC 40 %', 'socOrderError'],
    ['vehicle match failure: no vehicle has the VIN LZZ1234567890ABCD', 'vehicleMatchFailure'],
    ['SOC abnormal: SoC out of range 0-100', 'socAbnormal'],
    // ... and as orders held before the prefix carry them.
    ['unknown transaction: stop without a start (quarantined for reconciliation)', 'lostRecord'],
    ['meter register decreased', 'meterDataError'],
    ['energy beyond battery capacity (> 1000000 Wh)', 'electricityMismatch'],
    ['SoC out of range 0-100', 'socAbnormal'],
  ])('%s -> %s', (text, type) => {
    expect(abnormalReasonOf(text)?.type).toBe(type);
  });

  it('a missing price plan is no data exception; unknown text stays unmapped', () => {
    expect(abnormalReasonOf('no price plan in force for the session')).toEqual({
      type: null,
      detail: 'noPricePlan',
    });
    expect(abnormalReasonOf('something new')).toBeUndefined();
  });

  it('names every exception type and detail in both languages', () => {
    for (const locale of [billingZhCN, billingEnUS]) {
      const reason = locale.reason as unknown as Record<string, unknown> & { type: Record<string, string> };
      expect(Object.keys(reason.type).sort()).toEqual(
        [
          'electricityMismatch',
          'lostRecord',
          'meterDataError',
          'repeatedRecord',
          'socAbnormal',
          'socOrderError',
          'vehicleMatchFailure',
        ].sort(),
      );
      for (const [, type, detail] of ABNORMAL_REASONS) {
        if (type) expect(reason.type[type]).toBeTruthy();
        expect(typeof reason[detail]).toBe('string');
      }
    }
  });
});
