import { otherStopReason, registerText, secondStop, wholeRegisterWh } from './field-behaviours';

describe('the energy register as a pile reports it', () => {
  it.each([
    [92.49, false, '92', 92],
    [92.5, false, '93', 93],
    [92.49, true, '92.49', 92],
    [195.267, true, '195.26', 195],
    [0.29, true, '0.29', 0],
    [1_000_000, true, '1000000.00', 1_000_000],
    [1_000_000.999, true, '1000000.99', 1_000_000],
  ])('%d Wh (decimal %p): sample %j, meterStart/meterStop %d', (wh, decimal, text, whole) => {
    expect(registerText(wh, decimal)).toBe(text);
    expect(wholeRegisterWh(wh, decimal)).toBe(whole);
  });

  it('a decimal register never shows more than the meter counted, and meterStop is at most 1 Wh below it', () => {
    for (let wh = 0; wh < 50; wh += 0.137) {
      const sample = Number(registerText(wh, true));
      expect(sample).toBeLessThanOrEqual(wh + 1e-9);
      expect(sample - wholeRegisterWh(wh, true)).toBeLessThan(1);
    }
  });
});

describe('a second StopTransaction', () => {
  const first = {
    meterStopWh: 5_000,
    timestamp: '2026-11-27T10:00:00.000Z',
    reason: 'EVDisconnected' as const,
  };

  it('has another reason, a higher meterStop and a later time by default', () => {
    expect(secondStop(first, {})).toEqual({
      meterStopWh: 5_072,
      timestamp: '2026-11-27T10:00:01.000Z',
      reason: 'Other',
    });
  });

  it('takes the reason, the rise and the delay it is given (a rise of at least 1 Wh)', () => {
    expect(secondStop(first, { reason: 'PowerLoss', extraWh: 300, afterMs: 80 })).toEqual({
      meterStopWh: 5_300,
      timestamp: '2026-11-27T10:00:00.080Z',
      reason: 'PowerLoss',
    });
    expect(secondStop(first, { extraWh: 0 }).meterStopWh).toBe(5_001);
  });

  it.each([
    ['Other', 'Local'],
    ['Local', 'Other'],
    ['EVDisconnected', 'Other'],
  ] as const)('after %s, another reason is %s', (reason, other) => {
    expect(otherStopReason(reason)).toBe(other);
  });
});
