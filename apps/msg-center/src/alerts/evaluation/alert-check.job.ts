/** Queue of the alert checks (one per msg-center deployment, under MSG_QUEUE_PREFIX). */
export const ALERT_QUEUE = 'alerts';

/** The job scheduler that starts a round of checks every MSG_ALERT_INTERVAL_MS. */
export const ALERT_TICK_SCHEDULER = 'alerts-tick';

/** Job names of the alert queue: each has exactly one handler, or the worker refuses to start. */
export const ALERT_JOB_NAMES = { tick: 'alerts.tick', evaluate: 'alert.evaluate' } as const;
export type AlertJobName = (typeof ALERT_JOB_NAMES)[keyof typeof ALERT_JOB_NAMES];

/** `alerts.tick`: no payload; it enqueues one `alert.evaluate` per enabled alert. */
export type AlertTickJob = Record<string, never>;

/** `alert.evaluate`: one check of one alert in one round (`round` names the tick). */
export type AlertEvaluateJob = { alertId: number; round: string };

/** Deterministic: a round checks each alert once, however often the tick runs. */
export function alertEvaluateJobId(alertId: number, round: string): string {
  return `alert.${alertId}.${round}`;
}

/** The round of a tick: the scheduled time in its job id (`repeat:<scheduler>:<millis>`), else `now`. */
export function roundOf(jobId: string | undefined, now: number): string {
  const m = /:(\d+)$/.exec(jobId ?? '');
  return m ? m[1] : String(now);
}
