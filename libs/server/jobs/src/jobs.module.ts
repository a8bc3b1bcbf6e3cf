import { type DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { AnyJob } from './job';
import { JobQueue } from './job-queue';
import { DeclaredJobs, JobWorkers } from './job-workers';
import { JOBS_OPTIONS, type JobsOptions } from './jobs.options';

@Module({})
class JobsFeatureModule {}

/**
 * Background jobs on BullMQ. `forRoot` once in a process (global): the `JobQueue` to enqueue jobs, and
 * the workers of every job some module declared with `forFeature`, each run by the provider marked
 * `@HandlesJob(job)`. At start-up every declared job has exactly one handler and every handler a
 * declared job, or the process refuses to start; declared schedules are upserted (one schedule across
 * replicas), and the schedule of a job declared without one is removed.
 *
 * ```ts
 * // the worker's root module
 * JobsModule.forRoot({ redisUrl: config.REDIS_URL, prefix: config.API_QUEUE_PREFIX })
 * // an area's worker module
 * @Module({ imports: [JobsModule.forFeature([scheduled(LostStopSweepJob, every)])], providers: [LostStopSweepHandler] })
 * ```
 */
@Module({})
export class JobsModule {
  static forRoot(options: JobsOptions): DynamicModule {
    return {
      module: JobsModule,
      global: true,
      imports: [DiscoveryModule],
      providers: [{ provide: JOBS_OPTIONS, useValue: options }, JobQueue, JobWorkers],
      exports: [JobQueue],
    };
  }

  /** Declares jobs this process runs (their handlers are providers of the same or any other module). */
  static forFeature(jobs: readonly AnyJob[]): DynamicModule {
    const token = Symbol(`jobs: ${jobs.map((j) => j.name).join(', ')}`);
    return {
      module: JobsFeatureModule,
      providers: [{ provide: token, useValue: new DeclaredJobs(jobs) }],
    };
  }
}
