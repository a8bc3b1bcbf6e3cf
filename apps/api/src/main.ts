import { bootstrapService, loadConfigOrExit } from '@voltdepot/server-core';
import { apiConfigSchema } from './app.config';
import { AppModule } from './app.module';

const config = loadConfigOrExit(apiConfigSchema);
void bootstrapService(AppModule.register(config), { config });
