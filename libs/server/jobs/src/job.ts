import { createHash } from 'node:crypto';

/** When a scheduled job runs, and the payload each run gets. */
export type JobSchedule<P> =
  | { everyMs: number; payload: P }
  /** A cron pattern (with seconds: `0 0 2 * * *`), in `timeZone` (default the server's). */
  | { cron: string; timeZone?: string; payload: P };

/**
 * One kind of background job, declared once in its `*.job.ts`. Each job has a BullMQ queue of its own
 * (named after it), so its concurrency and lock are its own.
 */
export type JobDefinition<P> = {
  /** `<area>.<what>`, unique in the workspace; also its queue's name. */
  readonly name: string;
  /**
   * Deterministic id of an enqueued run, from its payload: the same work enqueued twice (a retried
   * request, two replicas) is one job. Scheduled runs get the scheduler's id (`repeat:<name>:<slot>`),
   * the same on every replica. Needed only by jobs that are enqueued.
   */
  readonly jobId?: (payload: P) => string;
  /** Tries per run, the first included (bounded: 1..20). */
  readonly attempts: number;
  /** Wait before the second try (ms); doubles with each further try. */
  readonly backoffMs: number;
  /** Runs of this job one worker process handles at once (default 1). */
  readonly concurrency?: number;
  /** Lock on a running job (ms, default 30 s): a killed worker's job is taken over after it expires. */
  readonly lockMs?: number;
  /** Started by a BullMQ job scheduler (one schedule across every replica); none: enqueued only. */
  readonly schedule?: JobSchedule<P>;
};

/** Any job, whatever its payload (lists of jobs of different payloads). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a payload is both read and written: no other type fits every job
export type AnyJob = JobDefinition<any>;

/** A job that can be enqueued (it says how a payload becomes a job id). */
export type EnqueuedJob<P> = JobDefinition<P> & { readonly jobId: (payload: P) => string };

/** The payload type of a job definition. */
export type PayloadOf<J> = J extends JobDefinition<infer P> ? P : never;

const JOB_NAME = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/;

/** Declares a job (checked at once, so a mistake fails at import, not at the first run). */
export function defineJob<P>(definition: EnqueuedJob<P>): EnqueuedJob<P>;
export function defineJob<P>(definition: JobDefinition<P>): JobDefinition<P>;
export function defineJob<P>(definition: JobDefinition<P>): JobDefinition<P> {
  const problems = jobDefinitionProblems(definition);
  if (problems.length) throw new Error(`job '${definition.name}': ${problems.join('; ')}`);
  return definition;
}

/** The job with a schedule (for a schedule that comes from configuration). */
export function scheduled<J extends AnyJob>(job: J, schedule: JobSchedule<PayloadOf<J>> | undefined): J {
  return defineJob<PayloadOf<J>>({ ...job, schedule }) as J;
}

export function jobDefinitionProblems(job: AnyJob): string[] {
  const problems: string[] = [];
  if (!JOB_NAME.test(job.name)) problems.push(`name must look like '<area>.<what>' (got '${job.name}')`);
  if (!Number.isInteger(job.attempts) || job.attempts < 1 || job.attempts > 20)
    problems.push('attempts must be an integer from 1 to 20');
  if (!Number.isInteger(job.backoffMs) || job.backoffMs < 0) problems.push('backoffMs must be >= 0');
  if (job.concurrency !== undefined && (!Number.isInteger(job.concurrency) || job.concurrency < 1))
    problems.push('concurrency must be a positive integer');
  if (job.lockMs !== undefined && (!Number.isInteger(job.lockMs) || job.lockMs < 1000))
    problems.push('lockMs must be at least 1000');
  const schedule = job.schedule;
  if (schedule && 'everyMs' in schedule && (!Number.isInteger(schedule.everyMs) || schedule.everyMs < 100))
    problems.push('schedule.everyMs must be an integer of at least 100');
  if (schedule && 'cron' in schedule && !schedule.cron.trim()) problems.push('schedule.cron is empty');
  return problems;
}

/**
 * A BullMQ-safe job id from parts of a business key: no ':' (BullMQ's separator), bounded length
 * (hashed beyond it), so ids stay deterministic whatever the key holds.
 */
export function jobIdOf(...parts: (string | number)[]): string {
  const raw = parts.join('.').replace(/[^A-Za-z0-9._-]/g, '_');
  return raw.length <= 120 ? raw : `h${createHash('sha256').update(raw).digest('hex')}`;
}
