import type { AnyJob } from './job';
import type { JobHandler } from './job-handler';

/** A handler found at start-up, with the job name it was declared for. */
export type DiscoveredHandler = { jobName: string; handler: JobHandler<unknown>; owner: string };

/**
 * Every declared job has exactly one handler and every handler a declared job, or the worker refuses to
 * start (naming every problem at once). Returns the handlers by job name.
 */
export function handlersByJobName(
  jobs: readonly AnyJob[],
  handlers: readonly DiscoveredHandler[],
): Map<string, JobHandler<unknown>> {
  const problems: string[] = [];
  const declared = new Set<string>();
  for (const job of jobs) {
    if (declared.has(job.name)) problems.push(`job '${job.name}' is declared more than once`);
    declared.add(job.name);
  }
  const byName = new Map<string, JobHandler<unknown>>();
  for (const { jobName, handler, owner } of handlers) {
    if (typeof handler.handle !== 'function') problems.push(`${owner} has no handle() method`);
    if (byName.has(jobName)) problems.push(`job '${jobName}' has more than one handler`);
    else if (!declared.has(jobName)) problems.push(`${owner} handles '${jobName}', which no module declares`);
    byName.set(jobName, handler);
  }
  for (const name of declared) if (!byName.has(name)) problems.push(`job '${name}' has no handler`);
  if (problems.length) throw new Error(`Refusing to start the job worker: ${problems.join('; ')}`);
  return byName;
}
