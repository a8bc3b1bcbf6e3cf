import { createLogger, loadConfigOrExit } from '@voltdepot/server-core';
import { resolve } from 'node:path';
import { consoleServerConfigSchema } from './console-server.config';
import { createConsoleServer } from './console-server';
import { StaticSite } from './static-site';

/**
 * The console's production server: `node dist/apps/console-server/apps/console-server/src/main.js`
 * (configuration in console-server.config.ts). The Vite dev server (`nx run console:serve`) is for development.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit(consoleServerConfigSchema);
  const logger = createLogger({ service: config.SERVICE_NAME, level: config.LOG_LEVEL });
  const dist = resolve(config.CONSOLE_DIST);
  if (!(await new StaticSite(dist).hasBuild())) {
    logger.fatal({ dist }, 'no console build here (nx run console:build), or CONSOLE_DIST is wrong');
    process.exit(1);
  }
  const { server, close } = createConsoleServer({ config: { ...config, CONSOLE_DIST: dist }, logger });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down');
      setTimeout(() => process.exit(1), 10_000).unref();
      close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
  server.once('error', (error) => {
    logger.fatal({ err: error }, 'failed to start');
    process.exit(1);
  });
  server.listen(config.PORT, config.HOST, () =>
    logger.info(
      { port: config.PORT, dist, api: config.API_UPSTREAM, msgCenter: config.MS_UPSTREAM },
      'listening',
    ),
  );
}

void main();
