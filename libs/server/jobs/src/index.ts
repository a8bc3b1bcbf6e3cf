export * from './job';
export * from './job-handler';
export * from './job-registry';
export { JobQueue, runOptionsOf } from './job-queue';
export { JobsModule } from './jobs.module';
export type { JobsOptions } from './jobs.options';
