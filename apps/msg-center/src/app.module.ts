import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, ObservabilityModule, postgresUrlCheck, redisUrlCheck } from '@voltdepot/server-core';
import type { MsgCenterConfig } from './app.config';

/** Built from the validated configuration, so nothing below reads process.env. */
@Module({})
export class AppModule {
  static register(config: MsgCenterConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        // Dedicated health connections until the database and messaging libraries provide the
        // service's own DataSource and Redis client (then: forRootAsync + postgresCheck/redisCheck).
        ObservabilityModule.forRoot({
          service: config.SERVICE_NAME,
          version: config.SERVICE_VERSION,
          checks: [redisUrlCheck(config.REDIS_URL), postgresUrlCheck(config.DATABASE_URL)],
        }),
      ],
    };
  }
}
