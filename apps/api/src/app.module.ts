import { DynamicModule, Module } from '@nestjs/common';
import {
  AuthGuardModule,
  ConfigModule,
  ObservabilityModule,
  postgresUrlCheck,
  redisUrlCheck,
} from '@voltdepot/server-core';
import { AssetsModule } from '@voltdepot/server-assets';
import { BillingModule } from '@voltdepot/server-billing';
import { MonitoringModule } from '@voltdepot/server-monitoring';
import { DataScopeService, IdentityModule, IdentityPermissionLookup } from '@voltdepot/server-identity';
import {
  busCheck,
  busConfigFromService,
  EVENT_BUS,
  MessagingModule,
  type EventBus,
} from '@voltdepot/server-messaging';
import { DataSource } from 'typeorm';
import type { ApiConfig } from './app.config';
import { DatabaseModule } from './database.module';

/** Built from the validated configuration, so nothing below reads process.env. */
/** The identity area's data scope, given to every business area that lists by organisation. */
const DATA_SCOPE = {
  inject: [DataSource] as [typeof DataSource],
  useFactory: (db: DataSource) => new DataScopeService(db),
};

@Module({})
export class AppModule {
  static register(config: ApiConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot({ url: config.DATABASE_URL, applicationName: config.SERVICE_NAME }),
        MessagingModule.forRoot(busConfigFromService(config, 'api')),
        // The shared guard: deny by default, @Public / @Authenticated / @RequirePermissions open routes.
        AuthGuardModule.forRoot({
          jwtSecret: config.JWT_SECRET,
          redisUrl: config.REDIS_URL,
          redisKeyPrefix: config.AUTH_REDIS_KEY_PREFIX,
          permissionLookup: {
            inject: [DataSource],
            useFactory: (db: DataSource) => new IdentityPermissionLookup(db),
          },
        }),
        IdentityModule.forRoot({
          jwtSecret: config.JWT_SECRET,
          accessTokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
          refreshTokenTtlSeconds: config.REFRESH_TOKEN_TTL_SECONDS,
          captchaTtlSeconds: config.CAPTCHA_TTL_SECONDS,
          exposeCaptchaAnswer: config.CAPTCHA_EXPOSE_ANSWER,
          redisUrl: config.REDIS_URL,
          redisKeyPrefix: config.AUTH_REDIS_KEY_PREFIX,
          throttle: {
            maxAccountFailures: config.AUTH_MAX_ACCOUNT_FAILURES,
            maxAddressFailures: config.AUTH_MAX_ADDRESS_FAILURES,
            windowSeconds: config.AUTH_FAILURE_WINDOW_SECONDS,
            lockSeconds: config.AUTH_LOCK_SECONDS,
          },
          platformConfigKey: config.PLATFORM_CONFIG_KEY,
          totpIssuer: config.TOTP_ISSUER,
          totpEncryptionKey: config.TOTP_ENCRYPTION_KEY,
          seedDemoData: config.DEMO_DATA,
        }),
        // Price plans and the settlement of charging sessions into orders.
        BillingModule.forRoot({
          dataScope: DATA_SCOPE,
          lostStopMinutes: config.BILLING_LOST_STOP_MINUTES,
        }),
        // Charging assets (basic data), kept in step with the OCPP gateway's registry; lists by data scope.
        AssetsModule.forRoot({
          dataScope: DATA_SCOPE,
        }),
        // Live monitoring: the gun/pile read model fed by the gateway's events, its screens, pile commands.
        MonitoringModule.forRoot({
          redisUrl: config.REDIS_URL,
          busPrefix: config.BUS_PREFIX,
          ocppRedisPrefix: config.OCPP_REDIS_PREFIX,
          dataScope: DATA_SCOPE,
        }),
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
