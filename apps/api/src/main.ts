import { createLogger, createServiceApp, loadConfigOrExit } from '@voltdepot/server-core';
import { DEV_PILE_PASSWORD_KEY_WARNING } from '@voltdepot/server-pile-credentials';
import { apiConfigSchema } from './app.config';
import { AppModule } from './app.module';
import { setupOpenApi } from './openapi';

// Like bootstrapService, plus the OpenAPI routes, which must be registered before the app initialises.
async function main(): Promise<void> {
  const config = loadConfigOrExit(apiConfigSchema);
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
  if (config.JWT_SECRET_IS_DEV_DEFAULT) {
    logger.warn('JWT_SECRET is not set: using the built-in development secret (never do this in production)');
  }
  if (config.PILE_PASSWORD_KEY === undefined) logger.warn(DEV_PILE_PASSWORD_KEY_WARNING);
  if (config.CAPTCHA_EXPOSE_ANSWER) {
    logger.warn('CAPTCHA_EXPOSE_ANSWER is on: captcha answers are in the responses (tests only)');
  }
  try {
    const { app } = await createServiceApp(AppModule.register(config), { config, logger });
    if (config.OPENAPI_DOCS) setupOpenApi(app);
    app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
    await app.listen(config.PORT);
    logger.info({ port: config.PORT }, 'listening');
  } catch (error) {
    logger.fatal({ err: error }, 'failed to start');
    process.exit(1);
  }
}

void main();
