import { Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import {
  AuthGuardModule,
  ConfigModule,
  ObservabilityModule,
  postgresCheck,
  redisCheck,
  ServiceMetrics,
  type Logger,
} from '@voltdepot/server-core';
import { createDataSource } from '@voltdepot/server-database';
import { IdentityPermissionLookup } from '@voltdepot/server-identity';
import {
  busCheck,
  busConfigFromService,
  EVENT_BUS,
  MessagingModule,
  OUTBOX_RELAY,
  type OutboxRelay,
  type EventBus,
} from '@voltdepot/server-messaging';
import { OcppGatewayModule, PileCommandsController } from '@voltdepot/server-ocpp-gateway';
import type { GatewayConfig } from './app.config';

export const GATEWAY_REDIS = Symbol('GATEWAY_REDIS');
export const GATEWAY_LOGGER = Symbol('GATEWAY_LOGGER');

/** Closes the gateway's own connections after the OCPP server has stopped (it stops before shutdown). */
@Injectable()
class GatewayResources implements OnApplicationShutdown {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(GATEWAY_REDIS) private readonly redis: Redis,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/**
 * The gateway process: the OCPP 1.6J WebSocket server (OCPP_PORT) and, on PORT, /health, /metrics and
 * the pile command API (behind the shared guard).
 * Built from the validated configuration, so nothing below reads process.env.
 */
@Module({})
export class AppModule {
  static register(config: GatewayConfig, logger: Logger): DynamicModule {
    const resources = [
      { provide: GATEWAY_LOGGER, useValue: logger },
      {
        provide: DataSource,
        // The gateway answers piles from the database: it does not start without it.
        useFactory: async () =>
          createDataSource({
            url: config.DATABASE_URL,
            applicationName: config.SERVICE_NAME,
            poolSize: 20,
          }).initialize(),
      },
      { provide: GATEWAY_REDIS, useFactory: () => new Redis(config.REDIS_URL, { maxRetriesPerRequest: 3 }) },
    ];
    return {
      module: AppModule,
      global: true,
      imports: [
        ConfigModule.forRoot(config),
        MessagingModule.forRoot(busConfigFromService(config, 'ocpp-gateway')),
        // The shared guard: deny by default; the command API needs the pile:command permission.
        AuthGuardModule.forRoot({
          jwtSecret: config.JWT_SECRET,
          redisUrl: config.REDIS_URL,
          redisKeyPrefix: config.AUTH_REDIS_KEY_PREFIX,
          permissionLookup: {
            inject: [DataSource],
            useFactory: (db: DataSource) => new IdentityPermissionLookup(db),
          },
        }),
        ObservabilityModule.forRootAsync({
          inject: [DataSource, GATEWAY_REDIS, EVENT_BUS],
          useFactory: (dataSource: DataSource, redis: Redis, bus: EventBus) => ({
            service: config.SERVICE_NAME,
            version: config.SERVICE_VERSION,
            checks: [postgresCheck(dataSource), redisCheck(redis), busCheck(bus)],
          }),
        }),
        OcppGatewayModule.forRootAsync({
          inject: [DataSource, GATEWAY_REDIS, EVENT_BUS, OUTBOX_RELAY, GATEWAY_LOGGER, ServiceMetrics],
          useFactory: (
            dataSource: DataSource,
            redis: Redis,
            bus: EventBus,
            outboxRelay: OutboxRelay,
            log: Logger,
            metrics: ServiceMetrics,
          ) => ({
            dataSource,
            redis,
            bus,
            // The messaging module's relay publishes what the gateway commits; nudged after each commit.
            outboxRelay,
            logger: log,
            // The gateway's metrics (connections, messages, latency, commands) join /metrics.
            metricsRegistry: metrics.registry,
            settings: config,
          }),
        }),
      ],
      controllers: [PileCommandsController],
      providers: [...resources, GatewayResources],
      exports: [DataSource, GATEWAY_REDIS, GATEWAY_LOGGER],
    };
  }
}
