import { bootstrapService, loadConfigOrExit } from '@voltdepot/server-core';
import { gatewayConfigSchema } from './app.config';
import { AppModule } from './app.module';

const config = loadConfigOrExit(gatewayConfigSchema);
void bootstrapService(AppModule.register(config), { config });
