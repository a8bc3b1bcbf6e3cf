import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
  Optional,
} from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { ServiceMetrics } from '@voltdepot/server-core';
import { Queue, Worker, type Job } from 'bullmq';
import Redis from 'ioredis';
import { Counter, Histogram } from 'prom-client';
import type { AnyJob } from './job';
import { JOB_HANDLER, type JobHandler } from './job-handler';
import { runOptionsOf } from './job-queue';
import { handlersByJobName, type DiscoveredHandler } from './job-registry';
import { JOBS_OPTIONS, type JobsOptions } from './jobs.options';

/** The jobs one `JobsModule.forFeature` declared (found at start-up). */
export class DeclaredJobs {
  constructor(readonly jobs: readonly AnyJob[]) {}
}

const DEFAULT_LOCK_MS = 30_000;

/**
 * The workers of the declared jobs: validates the declarations against the handlers before touching
 * Redis (a process with a job nobody handles never starts), then starts one BullMQ worker per job and,
 * in the background (so a process started before Redis still comes up and reports it), brings the
 * job schedulers in line with the declarations.
 */
@Injectable()
export class JobWorkers implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  private connection?: Redis;
  private readonly workers: Worker[] = [];
  private scheduling?: Promise<void>;
  private stopped = false;
  private wake?: () => void;
  private readonly runs?: Counter<'job' | 'outcome'>;
  private readonly duration?: Histogram<'job'>;

  constructor(
    @Inject(JOBS_OPTIONS) private readonly options: JobsOptions,
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Optional() @Inject(ServiceMetrics) metrics?: ServiceMetrics,
  ) {
    if (metrics) {
      const registers = [metrics.registry];
      this.runs = new Counter({
        name: 'voltdepot_job_runs_total',
        help: 'Tries of background jobs in this process, by job and outcome',
        labelNames: ['job', 'outcome'],
        registers,
      });
      this.duration = new Histogram({
        name: 'voltdepot_job_duration_seconds',
        help: 'Duration of background job tries in this process, by job',
        labelNames: ['job'],
        buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
        registers,
      });
    }
  }

  /** The declared jobs and their handlers (throws, naming every problem, unless they match one to one). */
  declarations(): { jobs: AnyJob[]; handlers: Map<string, JobHandler<unknown>> } {
    const jobs = this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is DeclaredJobs => instance instanceof DeclaredJobs)
      .flatMap((declared) => declared.jobs);
    const found: DiscoveredHandler[] = this.discovery
      .getProviders({ metadataKey: JOB_HANDLER.KEY })
      .map((wrapper) => ({
        jobName: this.discovery.getMetadataByDecorator(JOB_HANDLER, wrapper) ?? '',
        handler: wrapper.instance as JobHandler<unknown>,
        owner: wrapper.name,
      }));
    return { jobs, handlers: handlersByJobName(jobs, found) };
  }

  private declared?: ReturnType<JobWorkers['declarations']>;

  /** Checked when the module graph is ready, before any provider starts work. */
  onModuleInit(): void {
    this.declared = this.declarations();
  }

  onApplicationBootstrap(): void {
    const { jobs, handlers } = this.declared ?? this.declarations();
    if (!jobs.length) return;
    this.connection = new Redis(this.options.redisUrl, { maxRetriesPerRequest: null });
    for (const job of jobs) this.workers.push(this.workerOf(job, handlers.get(job.name)!));
    this.scheduling = this.schedule(jobs);
    this.logger.log(`job workers started: ${jobs.map((j) => j.name).join(', ')}`);
  }

  private workerOf(job: AnyJob, handler: JobHandler<unknown>): Worker {
    const lockMs = job.lockMs ?? DEFAULT_LOCK_MS;
    const worker = new Worker(job.name, (run: Job) => this.process(job, handler, run), {
      connection: this.connection!,
      prefix: this.options.prefix,
      concurrency: job.concurrency ?? 1,
      lockDuration: lockMs,
      stalledInterval: Math.max(500, Math.floor(lockMs / 2)),
      maxStalledCount: 2,
    });
    worker.on('failed', (run, error) => {
      const final = run !== undefined && run.attemptsMade >= (run.opts.attempts ?? 1);
      const message = `job ${run?.id ?? '?'} (${job.name}) try ${run?.attemptsMade ?? '?'} failed${final ? ', no tries left (kept as failed)' : ''}: ${error.message}`;
      if (final) this.logger.error(message);
      else this.logger.warn(message);
    });
    worker.on('error', (error) => this.logger.error(`worker of ${job.name}: ${error.message}`));
    return worker;
  }

  private async process(job: AnyJob, handler: JobHandler<unknown>, run: Job): Promise<unknown> {
    const stopTimer = this.duration?.startTimer({ job: job.name });
    try {
      const result = await handler.handle(run.data, { id: run.id ?? '', attempt: run.attemptsMade + 1 });
      this.runs?.inc({ job: job.name, outcome: 'completed' });
      return result;
    } catch (error) {
      this.runs?.inc({ job: job.name, outcome: 'failed' });
      throw error;
    } finally {
      stopTimer?.();
    }
  }

  /**
   * Every replica upserts the same schedulers: one schedule per job, the latest declaration wins. Tried
   * again with backoff while Redis does not answer (its own connection, which gives up on a command
   * instead of queueing it forever).
   */
  private async schedule(jobs: AnyJob[]): Promise<void> {
    for (let attempt = 1; !this.stopped; attempt++) {
      const redis = new Redis(this.options.redisUrl, { maxRetriesPerRequest: 1 });
      redis.on('error', () => undefined); // reported below, once per attempt
      const queues = jobs.map(
        (job) => new Queue(job.name, { connection: redis, prefix: this.options.prefix }),
      );
      try {
        await Promise.all(jobs.map((job, i) => applySchedule(queues[i], job)));
        return;
      } catch (error) {
        this.logger.warn(`job schedules not set (attempt ${attempt}): ${(error as Error).message}`);
      } finally {
        await Promise.all(queues.map((q) => q.close().catch(() => undefined)));
        redis.disconnect();
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(10_000, 500 * 2 ** attempt));
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.scheduling;
    // close() lets running jobs finish; their locks are released so another replica is not delayed.
    await Promise.all(this.workers.map((worker) => worker.close()));
    await this.connection?.quit().catch(() => this.connection?.disconnect());
  }
}

/** Upserts the job's scheduler, or removes it when the job is declared without a schedule. */
async function applySchedule(queue: Queue, job: AnyJob): Promise<void> {
  const schedule = job.schedule;
  if (!schedule) {
    await queue.removeJobScheduler(job.name);
    return;
  }
  const repeat =
    'everyMs' in schedule
      ? { every: schedule.everyMs }
      : { pattern: schedule.cron, ...(schedule.timeZone ? { tz: schedule.timeZone } : {}) };
  await queue.upsertJobScheduler(job.name, repeat, {
    name: job.name,
    data: schedule.payload,
    opts: runOptionsOf(job),
  });
}
