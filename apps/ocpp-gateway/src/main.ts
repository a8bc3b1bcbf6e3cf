// First: loading the gateway library applies the process's V8 settings before anything else loads.
import { missingNodeOptions } from '@voltdepot/server-ocpp-gateway';
import { bootstrapService, createLogger, loadConfigOrExit } from '@voltdepot/server-core';
import { DEV_PILE_PASSWORD_KEY_WARNING } from '@voltdepot/server-pile-credentials';
import { gatewayConfigSchema } from './app.config';
import { AppModule } from './app.module';
import { setupGatewayOpenApi } from './openapi';

const config = loadConfigOrExit(gatewayConfigSchema);
const logger = createLogger({ service: config.SERVICE_NAME, level: config.LOG_LEVEL });
const missing = missingNodeOptions();
if (missing.length) {
  logger.warn(
    { missingNodeOptions: missing },
    'started without the node options the gateway is tuned for (see GATEWAY_NODE_OPTIONS)',
  );
}
if (config.PILE_PASSWORD_KEY === undefined) logger.warn(DEV_PILE_PASSWORD_KEY_WARNING);
void bootstrapService(AppModule.register(config, logger), {
  config,
  logger,
  setup: (app) => {
    if (config.OPENAPI_DOCS) setupGatewayOpenApi(app);
  },
});
