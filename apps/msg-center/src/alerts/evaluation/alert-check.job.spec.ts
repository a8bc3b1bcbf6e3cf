import { alertEvaluateJobId, roundOf } from './alert-check.job';

describe('alert check jobs', () => {
  it("names a round after the tick's scheduled time, so a round checks each alert once", () => {
    expect(roundOf('repeat:alerts-tick:1763900000000', 5)).toBe('1763900000000');
    expect(roundOf(undefined, 5)).toBe('5');
    expect(alertEvaluateJobId(7, '1763900000000')).toBe('alert.7.1763900000000');
    expect(alertEvaluateJobId(7, '1763900000000')).not.toContain(':');
  });
});
