import { alertEvaluateJob, alertEvaluateJobId, AlertEvaluateJob } from './alert-evaluate.job';
import { alertTickJob, roundOf } from './alert-tick.job';

describe('alert check jobs', () => {
  it("names a round after the tick's scheduled time, so a round checks each alert once", () => {
    expect(roundOf('repeat:alerts.tick:1763900000000', 5)).toBe('1763900000000');
    expect(roundOf(undefined, 5)).toBe('5');
    expect(alertEvaluateJobId(7, '1763900000000')).toBe('alert.7.1763900000000');
    expect(AlertEvaluateJob.jobId({ alertId: 7, round: '1763900000000' })).toBe('alert.7.1763900000000');
  });

  it('schedules the tick at the configured interval and runs checks as configured', () => {
    expect(alertTickJob(250).schedule).toEqual({ everyMs: 250, payload: {} });
    expect(alertEvaluateJob({ concurrency: 4, timeoutMs: 1_000 })).toEqual(
      expect.objectContaining({ name: 'alert.evaluate', concurrency: 4, lockMs: 30_000, attempts: 3 }),
    );
    expect(alertEvaluateJob({ concurrency: 1, timeoutMs: 20_000 }).lockMs).toBe(120_000);
  });
});
