import { randomUUID } from 'node:crypto';
import { Injectable, Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { eventually, testEnv } from '@voltdepot/server-testing';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { defineJob, scheduled, type AnyJob } from './job';
import { HandlesJob, type JobHandler, type JobRun } from './job-handler';
import { JobQueue } from './job-queue';
import { JobsModule } from './jobs.module';

const { redisUrl } = testEnv();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Tick = { source: string };
const TickJob = defineJob<Tick>({ name: 'test.tick', attempts: 1, backoffMs: 0 });
type Work = { key: string; failTimes: number };
const WorkJob = defineJob<Work>({
  name: 'test.work',
  attempts: 3,
  backoffMs: 50,
  concurrency: 2,
  jobId: (p) => `work.${p.key}`,
});

/** What every replica's handlers saw, in one place (the replicas live in this test process). */
const seen = { ticks: [] as { replica: string; id: string }[], work: [] as { key: string; run: JobRun }[] };

/** A worker process's root module: the jobs of this test's namespace and their handlers. */
function replica(prefix: string, replicaName: string, jobs: AnyJob[]) {
  @Injectable()
  @HandlesJob(TickJob)
  class TickHandler implements JobHandler<Tick> {
    async handle(_payload: Tick, run: JobRun): Promise<void> {
      seen.ticks.push({ replica: replicaName, id: run.id });
    }
  }
  @Injectable()
  @HandlesJob(WorkJob)
  class WorkHandler implements JobHandler<Work> {
    async handle(payload: Work, run: JobRun): Promise<string> {
      seen.work.push({ key: payload.key, run });
      if (run.attempt <= payload.failTimes) throw new Error(`failing try ${run.attempt}`);
      return 'done';
    }
  }
  @Module({
    imports: [JobsModule.forRoot({ redisUrl, prefix }), JobsModule.forFeature(jobs)],
    providers: [TickHandler, WorkHandler],
  })
  class WorkerModule {}
  return NestFactory.createApplicationContext(WorkerModule, { logger: false, abortOnError: false });
}

describe('background jobs on BullMQ (real Redis)', () => {
  const prefix = `vdtest-jobs-${randomUUID().slice(0, 8)}`;
  const apps: INestApplicationContext[] = [];
  const redis = new Redis(redisUrl);
  const queueOf = (name: string) => new Queue(name, { connection: redis, prefix });

  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('runs a schedule once per slot however many replicas declare it', async () => {
    const every = scheduled(TickJob, { everyMs: 200, payload: { source: 'schedule' } });
    apps.push(await replica(prefix, 'a', [every, WorkJob]), await replica(prefix, 'b', [every, WorkJob]));
    await eventually(() => expect(seen.ticks.length).toBeGreaterThanOrEqual(5), 10_000);
    const ids = seen.ticks.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => id.startsWith('repeat:test.tick:'))).toBe(true);
    const queue = queueOf(TickJob.name);
    expect(await queue.getJobSchedulersCount()).toBe(1);

    // A deployment that declares the job without a schedule any more removes it.
    await Promise.all(apps.splice(0).map((app) => app.close()));
    apps.push(await replica(prefix, 'c', [TickJob, WorkJob]));
    await eventually(async () => expect(await queue.getJobSchedulersCount()).toBe(0));
    await sleep(300); // the last slot already due may still run
    const count = seen.ticks.length;
    await sleep(600);
    expect(seen.ticks.length).toBe(count);
    await queue.close();
  });

  it('makes one job of the same work enqueued twice, retries a failing one and keeps it when it fails for good', async () => {
    apps.push(await replica(prefix, 'a', [TickJob, WorkJob]));
    const jobs = apps[0].get(JobQueue);
    expect(await jobs.add(WorkJob, { key: 'once', failTimes: 1 })).toBe('work.once');
    await jobs.addBulk(WorkJob, [
      { key: 'once', failTimes: 1 },
      { key: 'never', failTimes: 99 },
    ]);
    await eventually(() => {
      expect(seen.work.filter((w) => w.key === 'once').map((w) => w.run.attempt)).toEqual([1, 2]);
      expect(seen.work.filter((w) => w.key === 'never').map((w) => w.run.attempt)).toEqual([1, 2, 3]);
    }, 10_000);
    const queue = queueOf(WorkJob.name);
    await eventually(async () => {
      const failed = await queue.getFailed();
      expect(failed.map((j) => [j.id, j.attemptsMade, j.failedReason])).toEqual([
        ['work.never', 3, 'failing try 3'],
      ]);
    });
    const [done] = await queue.getCompleted();
    expect([done.id, done.returnvalue]).toEqual(['work.once', 'done']);
    await sleep(300);
    expect(seen.work.filter((w) => w.key === 'never')).toHaveLength(3); // bounded: no fourth try
    await queue.close();
  });
});
