import { Injectable } from '@nestjs/common';
import { defineJob, HandlesJob, jobIdOf, type JobHandler } from '@voltdepot/server-jobs';
import { AlertEvaluator } from './alert-evaluator';

/** One check of one alert in one round (`round` names the tick that asked for it). */
export type AlertEvaluateRun = { alertId: number; round: string };

/**
 * `alert.evaluate`: enqueued by the round's tick, one per enabled alert, with a deterministic id (a round
 * checks each alert once however often its tick runs); tried three times, failures kept a week.
 * Concurrency and lock come from the configuration (`alertEvaluateJob`).
 */
export const AlertEvaluateJob = defineJob<AlertEvaluateRun>({
  name: 'alert.evaluate',
  attempts: 3,
  backoffMs: 1_000,
  jobId: ({ alertId, round }) => alertEvaluateJobId(alertId, round),
});

/** `alert.<id>.<round>`. */
export function alertEvaluateJobId(alertId: number, round: string): string {
  return jobIdOf('alert', alertId, round);
}

/** The job as this worker runs it: `concurrency` checks at once; a check takes up to a few time-outs. */
export function alertEvaluateJob(options: { concurrency: number; timeoutMs: number }) {
  return defineJob({
    ...AlertEvaluateJob,
    concurrency: options.concurrency,
    // Two CPU readings, or a Kafka connect and two requests, each up to the time-out.
    lockMs: Math.max(30_000, options.timeoutMs * 6),
  });
}

@Injectable()
@HandlesJob(AlertEvaluateJob)
export class AlertEvaluateHandler implements JobHandler<AlertEvaluateRun> {
  constructor(private readonly evaluator: AlertEvaluator) {}

  async handle({ alertId, round }: AlertEvaluateRun): Promise<string> {
    const check = await this.evaluator.evaluate(alertId, round);
    if (check === undefined) return 'skipped';
    return `${check.status} ${check.value ?? '-'}; notified ${check.notified.length}`;
  }
}
