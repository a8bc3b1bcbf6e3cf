import { NestFactory } from '@nestjs/core';
import { createLogger, loadConfigOrExit, NestPinoLogger } from '@voltdepot/server-core';
import { msgCenterConfigSchema } from './app.config';
import { WorkerModule } from './worker.module';

/** msg-center worker: sends queued messages (SMS, e-mail, WeCom, DingTalk, in-site). `node .../worker.main.js` */
async function main(): Promise<void> {
  const config = loadConfigOrExit(msgCenterConfigSchema);
  const logger = createLogger({ service: `${config.SERVICE_NAME}-worker`, level: config.LOG_LEVEL });
  try {
    const app = await NestFactory.createApplicationContext(WorkerModule.register(config), {
      logger: new NestPinoLogger(logger),
      abortOnError: false,
    });
    app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
    await app.init();
    logger.info({ queuePrefix: config.MSG_QUEUE_PREFIX }, 'worker ready');
  } catch (error) {
    logger.fatal({ err: error }, 'worker failed to start');
    process.exit(1);
  }
}

void main();
