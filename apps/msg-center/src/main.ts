import { bootstrapService, loadConfigOrExit } from '@voltdepot/server-core';
import { msgCenterConfigSchema } from './app.config';
import { AppModule } from './app.module';

const config = loadConfigOrExit(msgCenterConfigSchema);
void bootstrapService(AppModule.register(config), { config });
