import { bootstrapService, createLogger, loadConfigOrExit } from '@voltdepot/server-core';
import { apiConfigSchema } from './app.config';
import { WorkerModule, workerServiceName } from './worker.module';

/**
 * The api's worker: bus consumers, sweeps and scheduled jobs (worker.module.ts), no API. It still answers
 * /health and /metrics, on API_WORKER_PORT, so it is probed and scraped like every service.
 * `node dist/apps/api/apps/api/src/worker.main.js`; run as many replicas as needed.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit(apiConfigSchema);
  const service = workerServiceName(config);
  const logger = createLogger({ service, level: config.LOG_LEVEL });
  // Exits the process when the worker cannot start (a job without a handler, a bad module graph).
  await bootstrapService(WorkerModule.register(config), {
    config: { ...config, SERVICE_NAME: service },
    logger,
    port: config.API_WORKER_PORT,
    quietPaths: ['/health', '/metrics'],
  });
  logger.info({ port: config.API_WORKER_PORT, queuePrefix: config.API_QUEUE_PREFIX }, 'worker ready');
}

void main();
