import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { createDataSource } from '@voltdepot/server-database';
import { DataSource } from 'typeorm';

/** Connects the DataSource, retrying in the background, so the api starts (and reports) while PostgreSQL is down. */
class DataSourceConnector {
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(readonly db: DataSource) {}

  start(): void {
    this.db.initialize().catch(() => {
      if (!this.stopped) this.retry = setTimeout(() => this.start(), 2_000).unref();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry !== undefined) clearTimeout(this.retry);
    if (this.db.isInitialized) await this.db.destroy();
  }
}

@Injectable()
class DataSourceCloser implements OnApplicationShutdown {
  constructor(@Inject(DataSourceConnector) private readonly connector: DataSourceConnector) {}
  async onApplicationShutdown(): Promise<void> {
    await this.connector.stop();
  }
}

/**
 * The api's one PostgreSQL pool, injectable as `DataSource` everywhere. Schema changes come only from
 * migrations; this module never synchronizes.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(options: { url: string; applicationName: string }): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        {
          provide: DataSourceConnector,
          useFactory: () => {
            const connector = new DataSourceConnector(
              createDataSource({ url: options.url, applicationName: options.applicationName }),
            );
            connector.start();
            return connector;
          },
        },
        { provide: DataSource, inject: [DataSourceConnector], useFactory: (c: DataSourceConnector) => c.db },
        DataSourceCloser,
      ],
      exports: [DataSource],
    };
  }
}
