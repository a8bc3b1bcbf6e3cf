import { Injectable } from '@nestjs/common';
import {
  defineJob,
  HandlesJob,
  JobQueue,
  scheduled,
  type JobHandler,
  type JobRun,
} from '@voltdepot/server-jobs';
import { AlertRepository } from '../alert.repository';
import { AlertEvaluateJob } from './alert-evaluate.job';

/** A tick has no input: it checks whatever alerts are enabled when it runs. */
export type AlertTickRun = Record<string, never>;

/**
 * `alerts.tick`: starts a round of checks every MSG_ALERT_INTERVAL_MS (one schedule per deployment,
 * however many workers run it) by enqueueing one `alert.evaluate` per enabled alert. Not retried: the
 * next tick is the retry.
 */
export const AlertTickJob = defineJob<AlertTickRun>({ name: 'alerts.tick', attempts: 1, backoffMs: 0 });

/** The tick scheduled every `everyMs`. */
export function alertTickJob(everyMs: number) {
  return scheduled(AlertTickJob, { everyMs, payload: {} });
}

/** The round of a tick: the scheduled time in its job id (`repeat:<scheduler>:<millis>`), else `now`. */
export function roundOf(jobId: string | undefined, now: number): string {
  const m = /:(\d+)$/.exec(jobId ?? '');
  return m ? m[1] : String(now);
}

@Injectable()
@HandlesJob(AlertTickJob)
export class AlertTickHandler implements JobHandler<AlertTickRun> {
  constructor(
    private readonly alerts: AlertRepository,
    private readonly jobs: JobQueue,
  ) {}

  /** Resolves with the number of checks enqueued. */
  async handle(_payload: AlertTickRun, run: JobRun): Promise<number> {
    const round = roundOf(run.id, Date.now());
    const alerts = await this.alerts.enabled();
    await this.jobs.addBulk(
      AlertEvaluateJob,
      alerts.map((alert) => ({ alertId: alert.id, round })),
    );
    return alerts.length;
  }
}
