import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, ObservabilityModule, postgresUrlCheck, redisUrlCheck } from '@voltdepot/server-core';
import {
  busCheck,
  busConfigFromService,
  EVENT_BUS,
  MessagingModule,
  type EventBus,
} from '@voltdepot/server-messaging';
import type { MsgCenterConfig } from './app.config';

/** Built from the validated configuration, so nothing below reads process.env. */
@Module({})
export class AppModule {
  static register(config: MsgCenterConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        MessagingModule.forRoot(busConfigFromService(config, 'msg-center')),
        // Dedicated health connections for PostgreSQL and Redis until the service owns its DataSource.
        ObservabilityModule.forRootAsync({
          inject: [EVENT_BUS],
          useFactory: (bus: EventBus) => ({
            service: config.SERVICE_NAME,
            version: config.SERVICE_VERSION,
            checks: [postgresUrlCheck(config.DATABASE_URL), redisUrlCheck(config.REDIS_URL), busCheck(bus)],
          }),
        }),
      ],
    };
  }
}
