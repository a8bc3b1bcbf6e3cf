import {
  type DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
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
  /** Feed the read model from the bus in this process (default true). */
  runProjector?: boolean;
  commandTimeoutMs?: number;
};

const MONITOR_REDIS = Symbol('MONITOR_REDIS');
const MONITOR_DATA_SCOPE = Symbol('MONITOR_DATA_SCOPE');
const MONITOR_OPTIONS = Symbol('MONITOR_OPTIONS');

@Injectable()
class MonitoringLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Monitoring');
  private projector?: MonitorProjector;
  private starting?: Promise<void>;
  private stopped = false;

  constructor(
    @Inject(MONITOR_OPTIONS) private readonly options: MonitoringModuleOptions,
    @Inject(MONITOR_REDIS) private readonly redis: Redis,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(ReadModelStore) private readonly store: ReadModelStore,
    @Inject(MonitoringService) private readonly service: MonitoringService,
    @Inject(PileCommandSender) private readonly commands: PileCommandSender,
  ) {}

  /**
   * Starts in the background so the api serves (and reports unhealthy) while Redis or the bus is down:
   * the command sender is retried here, the projector keeps trying by itself (its consumer through
   * `startConsumer`).
   */
  onApplicationBootstrap(): void {
    const projector =
      this.options.runProjector === false
        ? undefined
        : new MonitorProjector(this.bus, this.store, this.redis, (cp) => this.service.pushViewOf(cp), {
            onError: (error, context) => this.logger.warn(`${context}: ${(error as Error).message}`),
          });
    this.projector = projector;
    this.starting = Promise.all([
      this.retry('pile command sender', () => this.commands.start()),
      projector?.start(),
    ]).then(() => undefined);
  }

  private async retry(what: string, start: () => Promise<void>): Promise<void> {
    for (let attempt = 1; !this.stopped; attempt++) {
      try {
        await start();
        return;
      } catch (error) {
        this.logger.warn(`${what} not started (attempt ${attempt}): ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 500 * attempt)));
      }
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.starting;
    await this.projector?.stop();
    await this.commands.stop();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * Live monitoring: the read model of guns and piles fed from the gateway's events (kept in Redis, rebuilt
 * from the bus when lost), the monitoring screens' API under /api/monitor and pile commands through the
 * gateway's command channel. Needs the app's `DataSource` and `EVENT_BUS`.
 */
@Module({})
export class MonitoringModule {
  static forRoot(options: MonitoringModuleOptions): DynamicModule {
    return {
      module: MonitoringModule,
      controllers: [MonitoringController],
      providers: [
        { provide: MONITOR_OPTIONS, useValue: options },
        {
          provide: MONITOR_REDIS,
          useFactory: () =>
            new Redis(options.redisUrl, { maxRetriesPerRequest: 2 }).on('error', () => undefined),
        },
        {
          provide: MONITOR_DATA_SCOPE,
          inject: options.dataScope.inject,
          useFactory: options.dataScope.useFactory,
        },
        {
          provide: ReadModelStore,
          inject: [MONITOR_REDIS],
          useFactory: (redis: Redis) =>
            new ReadModelStore(redis, ReadModelKeys.forBusPrefix(options.busPrefix)),
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
        {
          provide: PileCommandSender,
          inject: [MONITOR_REDIS, DataSource],
          useFactory: (redis: Redis, db: DataSource) =>
            new PileCommandSender(redis, db, {
              ocppPrefix: options.ocppRedisPrefix,
              defaultTimeoutMs: options.commandTimeoutMs,
            }),
        },
        MonitoringLifecycle,
      ],
    };
  }
}
