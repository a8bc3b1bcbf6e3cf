import { DynamicModule, Module } from '@nestjs/common';
import {
  AuthGuardModule,
  ConfigModule,
  type HealthCheck,
  ObservabilityModule,
  postgresUrlCheck,
  redisUrlCheck,
} from '@voltdepot/server-core';
import { AssetsModule } from '@voltdepot/server-assets';
import { pilePasswordHasherOf } from '@voltdepot/server-pile-credentials';
import { BillingModule } from '@voltdepot/server-billing';
import { documentFontHealthCheck } from '@voltdepot/server-documents';
import { IcCardModule } from '@voltdepot/server-iccard';
import { LedgerModule, LedgerService } from '@voltdepot/server-ledger';
import { MonitoringModule, type MonitoringModuleOptions } from '@voltdepot/server-monitoring';
import {
  BusinessTimeZoneReader,
  DataScopeService,
  IdentityModule,
  IdentityPermissionLookup,
} from '@voltdepot/server-identity';
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
import { OverviewModule } from './overview/overview.module';

/** The identity area's data scope, given to every business area that lists by organisation. */
export const DATA_SCOPE = {
  inject: [DataSource] as [typeof DataSource],
  useFactory: (db: DataSource) => new DataScopeService(db),
};

/** Where the monitoring read model lives and how pile commands reach the gateway (both processes). */
export function monitoringOptions(config: ApiConfig): MonitoringModuleOptions {
  return {
    redisUrl: config.REDIS_URL,
    busPrefix: config.BUS_PREFIX ?? 'vd',
    ocppRedisPrefix: config.OCPP_REDIS_PREFIX,
    dataScope: DATA_SCOPE,
  };
}

/**
 * What the HTTP process and the worker share: configuration, the PostgreSQL pool, the bus with its
 * outbox relay (each process runs one; one publishes at a time), /health and /metrics. Built from the
 * validated configuration, so nothing below reads process.env.
 */
export function coreImports(
  config: ApiConfig,
  serviceName: string,
  extraChecks: HealthCheck[] = [],
): DynamicModule[] {
  return [
    ConfigModule.forRoot(config),
    DatabaseModule.forRoot({ url: config.DATABASE_URL, applicationName: serviceName }),
    MessagingModule.forRoot(busConfigFromService(config, serviceName)),
    ObservabilityModule.forRootAsync({
      inject: [EVENT_BUS],
      useFactory: (bus: EventBus) => ({
        service: serviceName,
        version: config.SERVICE_VERSION,
        checks: [
          postgresUrlCheck(config.DATABASE_URL),
          redisUrlCheck(config.REDIS_URL),
          busCheck(bus),
          ...extraChecks,
        ],
      }),
    }),
  ];
}

/**
 * The HTTP process: every route of the api, nothing in the background but what a request starts (the
 * bus consumers, sweeps and scheduled jobs run in the worker, worker.module.ts).
 */
@Module({})
export class AppModule {
  static register(config: ApiConfig): DynamicModule {
    const monitoring = MonitoringModule.forRoot(monitoringOptions(config));
    return {
      module: AppModule,
      imports: [
        // The HTTP process renders the bills' PDFs: /health says when their font is missing (and the fix).
        ...coreImports(config, config.SERVICE_NAME, [documentFontHealthCheck()]),
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
        // Its demo-user seeding stays here: a one-off at start-up (idempotent across replicas), needed
        // by whoever signs in, which is this process's business; the worker may even run without it.
        IdentityModule.forRoot({
          jwtSecret: config.JWT_SECRET,
          accessTokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
          refreshTokenTtlSeconds: config.REFRESH_TOKEN_TTL_SECONDS,
          captchaTtlSeconds: config.CAPTCHA_TTL_SECONDS,
          exposeCaptchaAnswer: config.CAPTCHA_EXPOSE_ANSWER,
          captchaRate: {
            maxPerAddress: config.CAPTCHA_MAX_PER_ADDRESS,
            windowSeconds: config.CAPTCHA_RATE_WINDOW_SECONDS,
          },
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
          adminTotpRequiredByDefault: config.ADMIN_TOTP_REQUIRED_BY_DEFAULT,
        }),
        // Price plans, orders and their screens (settlement itself runs in the worker).
        BillingModule.forRoot({ dataScope: DATA_SCOPE }),
        // Charging assets (basic data), kept in step with the OCPP gateway's registry; lists by data scope.
        AssetsModule.forRoot({
          dataScope: DATA_SCOPE,
          pilePasswords: pilePasswordHasherOf(config).hasher,
        }),
        // IC-card companies, customers, cards and their actions, on the ledger's accounts.
        IcCardModule.forRoot({
          dataScope: DATA_SCOPE,
          ledger: {
            module: LedgerModule.forRoot({ minimumBalanceFen: config.LEDGER_MINIMUM_BALANCE_FEN }),
            token: LedgerService,
          },
          timeZone: { inject: [DataSource], useFactory: (db: DataSource) => new BusinessTimeZoneReader(db) },
        }),
        // Live monitoring's screens and pile commands (the read model is fed by the worker).
        monitoring,
        // The home page's figures of the day, read from monitoring, billing and identity.
        OverviewModule.register(monitoring),
      ],
    };
  }
}
