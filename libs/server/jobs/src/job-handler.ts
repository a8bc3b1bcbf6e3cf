import { DiscoveryService } from '@nestjs/core';
import type { JobDefinition } from './job';

/** The run a handler is given besides the payload. */
export type JobRun = {
  /** The job's id (deterministic: the definition's `jobId`, or `repeat:<name>:<slot>` when scheduled). */
  id: string;
  /** 1 for the first try. */
  attempt: number;
};

/** Does one run of a job; throwing fails the try (retried with backoff until the attempts run out). */
export interface JobHandler<P> {
  handle(payload: P, run: JobRun): Promise<unknown>;
}

/** Marks a provider as the handler of the named job; the worker finds it at start-up. */
export const JOB_HANDLER = DiscoveryService.createDecorator<string>();

/**
 * Declares the class (a Nest provider) the handler of `job`; its `handle` must take the job's payload.
 *
 * ```ts
 * @Injectable()
 * @HandlesJob(LostStopSweepJob)
 * export class LostStopSweepHandler implements JobHandler<LostStopSweepRun> { ... }
 * ```
 */
export function HandlesJob<P>(job: JobDefinition<P>) {
  return <T extends abstract new (...args: never[]) => JobHandler<P>>(target: T): void => {
    JOB_HANDLER(job.name)(target);
  };
}
