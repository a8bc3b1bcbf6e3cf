import { createLogger, createServiceApp, loadConfigOrExit } from '@voltdepot/server-core';
import { msgCenterConfigSchema } from './app.config';
import { AppModule } from './app.module';
import { setupMsgOpenApi } from './openapi/openapi';

// Like bootstrapService, plus the OpenAPI routes, which must be registered before the app initialises.
async function main(): Promise<void> {
  const config = loadConfigOrExit(msgCenterConfigSchema);
  const logger = createLogger({ service: config.SERVICE_NAME, level: config.LOG_LEVEL });
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception');
    process.exit(1);
  });
  process.on('unhandledRejection', (reason) => {
    logger.fatal({ err: reason }, 'unhandled promise rejection');
    process.exit(1);
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down');
      setTimeout(() => process.exit(1), 10_000).unref();
    });
  }
  try {
    // Template content may embed editor images (up to 10 MB, base64-encoded).
    const { app } = await createServiceApp(AppModule.register(config), { config, logger, bodyLimit: '15mb' });
    if (config.OPENAPI_DOCS) setupMsgOpenApi(app);
    app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
    await app.listen(config.PORT);
    logger.info({ port: config.PORT }, 'listening');
  } catch (error) {
    logger.fatal({ err: error }, 'failed to start');
    process.exit(1);
  }
}

void main();
