import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { defineJob } from './job';
import { HandlesJob, type JobHandler } from './job-handler';
import { JobsModule } from './jobs.module';

const sweep = defineJob<Record<string, never>>({
  name: 'test.sweep',
  attempts: 2,
  backoffMs: 100,
  schedule: { everyMs: 1000, payload: {} },
});
const report = defineJob<{ day: string }>({
  name: 'test.report',
  attempts: 2,
  backoffMs: 100,
  jobId: (p) => p.day,
});

@Injectable()
@HandlesJob(sweep)
class SweepHandler implements JobHandler<Record<string, never>> {
  async handle(): Promise<void> {}
}

/** A worker's root module; nothing here reaches Redis before the declarations are checked. */
function workerModule(jobs: Parameters<typeof JobsModule.forFeature>[0], providers: (typeof SweepHandler)[]) {
  @Module({
    imports: [
      JobsModule.forRoot({ redisUrl: 'redis://127.0.0.1:1', prefix: 'never-used' }),
      JobsModule.forFeature(jobs),
    ],
    providers,
  })
  class WorkerModule {}
  return WorkerModule;
}

describe('JobsModule at start-up', () => {
  it('refuses to start when a declared job name has no handler', async () => {
    await expect(
      NestFactory.createApplicationContext(workerModule([sweep, report], [SweepHandler]), {
        logger: false,
        abortOnError: false,
      }),
    ).rejects.toThrow("Refusing to start the job worker: job 'test.report' has no handler");
  });

  it('refuses to start when a handler has no declared job', async () => {
    await expect(
      NestFactory.createApplicationContext(workerModule([], [SweepHandler]), {
        logger: false,
        abortOnError: false,
      }),
    ).rejects.toThrow("SweepHandler handles 'test.sweep', which no module declares");
  });
});
