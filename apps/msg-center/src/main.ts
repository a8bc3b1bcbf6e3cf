import { bootstrapService, loadConfigOrExit } from '@voltdepot/server-core';
import { msgCenterConfigSchema } from './app.config';
import { AppModule } from './app.module';

const config = loadConfigOrExit(msgCenterConfigSchema);
// Template content may embed editor images (up to 10 MB, base64-encoded).
void bootstrapService(AppModule.register(config), { config, bodyLimit: '15mb' });
