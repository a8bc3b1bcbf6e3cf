import './v8-flags'; // first: V8 settings of this process
import { bootstrapService, createLogger, loadConfigOrExit } from '@voltdepot/server-core';
import { gatewayConfigSchema } from './app.config';
import { AppModule } from './app.module';

const config = loadConfigOrExit(gatewayConfigSchema);
const logger = createLogger({ service: config.SERVICE_NAME, level: config.LOG_LEVEL });
void bootstrapService(AppModule.register(config, logger), { config, logger });
