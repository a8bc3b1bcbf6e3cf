import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Queue, type JobsOptions as BullJobOptions } from 'bullmq';
import Redis from 'ioredis';
import type { EnqueuedJob, AnyJob } from './job';
import { JOBS_OPTIONS, KEEP_COMPLETED, KEEP_FAILED, type JobsOptions } from './jobs.options';

/** BullMQ options of every run of a job: bounded tries with exponential backoff, runs kept for inspection. */
export function runOptionsOf(job: AnyJob): BullJobOptions {
  return {
    attempts: job.attempts,
    backoff: { type: 'exponential', delay: job.backoffMs },
    removeOnComplete: KEEP_COMPLETED,
    removeOnFail: KEEP_FAILED,
  };
}

/**
 * Enqueues jobs (any process). The id comes from the job's `jobId`, so enqueueing the same work twice
 * makes one job. Connects on first use.
 */
@Injectable()
export class JobQueue implements OnApplicationShutdown {
  private connection?: Redis;
  private readonly queues = new Map<string, Queue>();

  constructor(@Inject(JOBS_OPTIONS) private readonly options: JobsOptions) {}

  /** Enqueues one run; resolves with its job id. */
  async add<P>(job: EnqueuedJob<P>, payload: P): Promise<string> {
    const [id] = await this.addBulk(job, [payload]);
    return id;
  }

  /** Enqueues runs in one round trip; resolves with their job ids, in order. */
  async addBulk<P>(job: EnqueuedJob<P>, payloads: readonly P[]): Promise<string[]> {
    const ids = payloads.map((payload) => job.jobId(payload));
    for (const id of ids)
      if (!id || id.includes(':'))
        throw new Error(`job '${job.name}': invalid job id '${id}' (empty or has ':')`);
    if (!payloads.length) return [];
    const options = runOptionsOf(job as AnyJob);
    await this.queueOf(job.name).addBulk(
      payloads.map((data, i) => ({ name: job.name, data, opts: { ...options, jobId: ids[i] } })),
    );
    return ids;
  }

  private queueOf(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      this.connection ??= new Redis(this.options.redisUrl, { maxRetriesPerRequest: 3 });
      queue = new Queue(name, { connection: this.connection, prefix: this.options.prefix });
      this.queues.set(name, queue);
    }
    return queue;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    await this.connection?.quit().catch(() => this.connection?.disconnect());
  }
}
