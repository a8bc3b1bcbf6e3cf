import { DynamicModule, Module } from '@nestjs/common';
import {
  AuthGuardModule,
  ConfigModule,
  ObservabilityModule,
  postgresUrlCheck,
  redisUrlCheck,
} from '@voltdepot/server-core';
import {
  busCheck,
  busConfigFromService,
  EVENT_BUS,
  MessagingModule,
  type EventBus,
} from '@voltdepot/server-messaging';
import { DataSource } from 'typeorm';
import type { MsgCenterConfig } from './app.config';
import { DispatchModule } from './jobs/dispatch.module';
import { MsgHttpModule } from './msg-http.module';
import { StopNoticesModule } from './stop-notices/stop-notices.module';
import { StorageModule } from './shared/database.module';
import { IdentityPermissionLookup, OperationLogModule } from '@voltdepot/server-identity';
import { PushModule } from './stomp/push.module';
import { StompModule } from './stomp/stomp.module';
import { MonitorTopicModule } from './monitoring/monitor-topic.module';
import { monitorFeedChannel } from '@voltdepot/server-monitoring';

/** What the HTTP service and the worker share: config, storage, bus, pushes. */
export function coreImports(config: MsgCenterConfig, role: 'http' | 'worker'): DynamicModule[] {
  return [
    ConfigModule.forRoot(config),
    StorageModule.forRoot({
      databaseUrl: config.DATABASE_URL,
      redisUrl: config.REDIS_URL,
      applicationName: `msg-center-${role}`,
    }),
    // msg-center never writes the outbox (it only consumes), so it runs no relay.
    MessagingModule.forRoot(busConfigFromService(config, `msg-center-${role}`), { outboxRelay: false }),
    PushModule.forRoot({ fanoutChannel: config.STOMP_FANOUT_CHANNEL }),
    DispatchModule.forRoot({
      redisUrl: config.REDIS_URL,
      prefix: config.MSG_QUEUE_PREFIX,
      attempts: config.MSG_JOB_ATTEMPTS,
      backoffMs: config.MSG_JOB_BACKOFF_MS,
      lockMs: config.MSG_JOB_LOCK_MS,
      concurrency: config.MSG_WORKER_CONCURRENCY,
    }),
  ];
}

/** /health (PostgreSQL, Redis, the bus) and /metrics of a msg-center process. */
export function observability(config: MsgCenterConfig, service: string): DynamicModule {
  return ObservabilityModule.forRootAsync({
    inject: [EVENT_BUS],
    useFactory: (bus: EventBus) => ({
      service,
      version: config.SERVICE_VERSION,
      checks: [postgresUrlCheck(config.DATABASE_URL), redisUrlCheck(config.REDIS_URL), busCheck(bus)],
    }),
  });
}

/** The HTTP service: REST API under /ms/m1/msg, STOMP at /ms/ws, bus listeners. Built from validated config. */
@Module({})
export class AppModule {
  static register(config: MsgCenterConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ...coreImports(config, 'http'),
        AuthGuardModule.forRoot({
          jwtSecret: config.JWT_SECRET,
          redisUrl: config.REDIS_URL,
          redisKeyPrefix: config.AUTH_REDIS_KEY_PREFIX,
          permissionLookup: {
            inject: [DataSource],
            useFactory: (db: DataSource) => new IdentityPermissionLookup(db),
          },
        }),
        StompModule.forRoot({
          redisUrl: config.REDIS_URL,
          fanoutChannel: config.STOMP_FANOUT_CHANNEL,
          heartbeatMs: config.STOMP_HEARTBEAT_MS,
          heartbeatGraceMs: config.STOMP_HEARTBEAT_GRACE_MS,
          connectTimeoutMs: config.STOMP_CONNECT_TIMEOUT_MS,
          sessionCheckMs: config.STOMP_SESSION_CHECK_MS,
        }),
        // Every POST/PUT/PATCH/DELETE lands in the api's operation log (same database, same table).
        OperationLogModule,
        MsgHttpModule,
        StopNoticesModule,
        MonitorTopicModule.forRoot({
          redisUrl: config.REDIS_URL,
          feedChannel: monitorFeedChannel(config.BUS_PREFIX ?? 'vd'),
        }),
        observability(config, config.SERVICE_NAME),
      ],
    };
  }
}
