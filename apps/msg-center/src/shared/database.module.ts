import { DynamicModule, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { createDataSource } from '@voltdepot/server-database';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';

/** General-purpose Redis client of the service (throttles, publishing pushes). */
export const MSG_REDIS = Symbol('MSG_REDIS');

@Injectable()
class StorageCloser implements OnApplicationShutdown {
  constructor(
    private readonly db: DataSource,
    @Inject(MSG_REDIS) private readonly redis: Redis,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
    if (this.db.isInitialized) await this.db.destroy();
  }
}

/** PostgreSQL (migrated elsewhere, never synchronised) and Redis for every module of the service. Global. */
@Module({})
export class StorageModule {
  static forRoot(options: { databaseUrl: string; redisUrl: string; applicationName: string }): DynamicModule {
    return {
      module: StorageModule,
      global: true,
      providers: [
        {
          provide: DataSource,
          useFactory: async () => {
            const ds = createDataSource({
              url: options.databaseUrl,
              applicationName: options.applicationName,
            });
            return ds.initialize();
          },
        },
        { provide: MSG_REDIS, useFactory: () => new Redis(options.redisUrl, { maxRetriesPerRequest: 2 }) },
        StorageCloser,
      ],
      exports: [DataSource, MSG_REDIS],
    };
  }
}
