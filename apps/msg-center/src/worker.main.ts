import { bootstrapService, createLogger, loadConfigOrExit } from '@voltdepot/server-core';
import { msgCenterConfigSchema } from './app.config';
import { WorkerModule, workerServiceName } from './worker.module';

/**
 * msg-center worker: sends queued messages (SMS, e-mail, WeCom, DingTalk, in-site) and runs the scheduled
 * checks. No API: it answers /health and /metrics only, on MSG_WORKER_PORT, so it is probed and scraped
 * like every service. `node dist/apps/msg-center/apps/msg-center/src/worker.main.js`; any number of replicas.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit(msgCenterConfigSchema);
  const service = workerServiceName(config);
  const logger = createLogger({ service, level: config.LOG_LEVEL });
  // Exits the process when the worker cannot start (a job without a handler, a bad module graph).
  await bootstrapService(WorkerModule.register(config), {
    config: { ...config, SERVICE_NAME: service },
    logger,
    port: config.MSG_WORKER_PORT,
    quietPaths: ['/health', '/metrics'],
  });
  logger.info({ port: config.MSG_WORKER_PORT, queuePrefix: config.MSG_QUEUE_PREFIX }, 'worker ready');
}

void main();
