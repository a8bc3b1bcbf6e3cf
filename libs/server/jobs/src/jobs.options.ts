/** Where a process's jobs live. */
export type JobsOptions = {
  redisUrl: string;
  /** BullMQ key prefix of the deployment's queues (every replica the same; tests their own). */
  prefix: string;
};

export const JOBS_OPTIONS = Symbol('JOBS_OPTIONS');

/** Completed runs are kept an hour (the last 1,000 at most), failed ones a week, for inspection. */
export const KEEP_COMPLETED = { age: 3600, count: 1000 };
export const KEEP_FAILED = { age: 7 * 86_400 };
