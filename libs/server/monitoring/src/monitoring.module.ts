import {
  type DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { EVENT_BUS, type EventBus } from '@voltdepot/server-messaging';
import { lastSeenOf } from '@voltdepot/server-ocpp-commands';
import { MonitoringController } from './api/monitoring.controller';
import { MonitoringService } from './api/monitoring.service';
import {
  MonitoringAssetsRepository,
  type MonitoringDataScopeProvider,
} from './assets/monitoring-assets.repository';
import { PileCommandSender } from './commands/pile-command.sender';
import { MonitorProjector } from './read-model/monitor.projector';
import { ReadModelKeys } from './read-model/read-model.keys';
import { ReadModelStore } from './read-model/read-model.store';

export type MonitoringModuleOptions = {
  redisUrl: string;
  /** BUS_PREFIX: the read model lives under `{busPrefix}:mon:` and its feed channel too. */
  busPrefix: string;
  /** OCPP_REDIS_PREFIX of the gateway, whose command channel carries the pile commands. */
  ocppRedisPrefix: string;
  /** The caller's data scope (identity's DataScopeService fits), built from the app's DataSource. */
  dataScope: { inject: [typeof DataSource]; useFactory: (db: DataSource) => MonitoringDataScopeProvider };
  commandTimeoutMs?: number;
};

const MONITOR_REDIS = Symbol('MONITOR_REDIS');
const MONITOR_DATA_SCOPE = Symbol('MONITOR_DATA_SCOPE');

/** The read model and its views: what the HTTP side reads and the worker's projector pushes. */
function readModelProviders(options: MonitoringModuleOptions): Provider[] {
  return [
    {
      provide: MONITOR_REDIS,
      useFactory: () => new Redis(options.redisUrl, { maxRetriesPerRequest: 2 }).on('error', () => undefined),
    },
    {
      provide: MONITOR_DATA_SCOPE,
      inject: options.dataScope.inject,
      useFactory: options.dataScope.useFactory,
    },
    {
      provide: ReadModelStore,
      inject: [MONITOR_REDIS],
      useFactory: (redis: Redis) => new ReadModelStore(redis, ReadModelKeys.forBusPrefix(options.busPrefix)),
    },
    {
      provide: MonitoringAssetsRepository,
      inject: [DataSource],
      useFactory: (db: DataSource) => new MonitoringAssetsRepository(db),
    },
    {
      provide: MonitoringService,
      inject: [ReadModelStore, MonitoringAssetsRepository, MONITOR_DATA_SCOPE, MONITOR_REDIS],
      useFactory: (
        store: ReadModelStore,
        assets: MonitoringAssetsRepository,
        scopes: MonitoringDataScopeProvider,
        redis: Redis,
      ) =>
        new MonitoringService(store, assets, scopes, undefined, (ids) =>
          lastSeenOf(redis, options.ocppRedisPrefix, ids),
        ),
    },
  ];
}

/**
 * The pile command sender of the HTTP side (routes send the commands). Started in the background and
 * retried, so the api serves (and reports unhealthy) while Redis is down.
 */
@Injectable()
class PileCommandsLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Monitoring');
  private starting?: Promise<void>;
  private stopped = false;

  constructor(
    @Inject(MONITOR_REDIS) private readonly redis: Redis,
    @Inject(PileCommandSender) private readonly commands: PileCommandSender,
  ) {}

  onApplicationBootstrap(): void {
    this.starting = this.startSender();
  }

  private async startSender(): Promise<void> {
    for (let attempt = 1; !this.stopped; attempt++) {
      try {
        await this.commands.start();
        return;
      } catch (error) {
        this.logger.warn(`pile command sender not started (attempt ${attempt}): ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 500 * attempt)));
      }
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.starting;
    await this.commands.stop();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * The projector of the worker: feeds the read model from the bus and pushes what changed. It never
 * waits for the brokers (see MonitorProjector), so the worker comes up while Redis or the bus is down.
 */
@Injectable()
class ProjectorLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Monitoring');
  private projector?: MonitorProjector;
  private starting?: Promise<void>;

  constructor(
    @Inject(MONITOR_REDIS) private readonly redis: Redis,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(ReadModelStore) private readonly store: ReadModelStore,
    @Inject(MonitoringService) private readonly service: MonitoringService,
  ) {}

  onApplicationBootstrap(): void {
    this.projector = new MonitorProjector(
      this.bus,
      this.store,
      this.redis,
      (cp) => this.service.pushViewOf(cp),
      {
        onError: (error, context) => this.logger.warn(`${context}: ${(error as Error).message}`),
      },
    );
    this.starting = this.projector.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.starting;
    await this.projector?.stop();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * Live monitoring's HTTP side: the monitoring screens' API under /api/monitor, read from the gun/pile
 * read model in Redis, and pile commands through the gateway's command channel. Needs the app's
 * `DataSource`. The read model is fed by the worker (`MonitoringWorkerModule`).
 */
@Module({})
export class MonitoringModule {
  static forRoot(options: MonitoringModuleOptions): DynamicModule {
    return {
      module: MonitoringModule,
      controllers: [MonitoringController],
      providers: [
        ...readModelProviders(options),
        {
          provide: PileCommandSender,
          inject: [MONITOR_REDIS, DataSource],
          useFactory: (redis: Redis, db: DataSource) =>
            new PileCommandSender(redis, db, {
              ocppPrefix: options.ocppRedisPrefix,
              defaultTimeoutMs: options.commandTimeoutMs,
            }),
        },
        PileCommandsLifecycle,
      ],
      // The live counts of the home page's figures (apps/api's overview) read through the service.
      exports: [MonitoringService],
    };
  }
}

/**
 * Live monitoring's background work, for the worker process: the projector that keeps the read model in
 * step with the gateway's events (rebuilt from the bus when lost) and pushes changed piles to the
 * station screens. Needs the app's `DataSource` and `EVENT_BUS`.
 */
@Module({})
export class MonitoringWorkerModule {
  static forRoot(options: MonitoringModuleOptions): DynamicModule {
    return {
      module: MonitoringWorkerModule,
      providers: [...readModelProviders(options), ProjectorLifecycle],
    };
  }
}
