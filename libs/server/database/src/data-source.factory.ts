import { DataSource, type DataSourceOptions } from 'typeorm';
import { ensureDatabase } from './admin';
import { allMigrations } from './migrations';

export type DatabaseOptions = {
  url: string;
  entities?: DataSourceOptions['entities'];
  /** Connection pool size per process. */
  poolSize?: number;
  applicationName?: string;
  logging?: boolean;
};

/** The one way services open PostgreSQL. Schema changes only through migrations; never synchronize. */
export function createDataSource(options: DatabaseOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    entities: options.entities ?? [],
    migrations: allMigrations,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: options.logging ?? false,
    applicationName: options.applicationName ?? 'voltdepot',
    extra: { max: options.poolSize ?? 10 },
  });
}

/** Apply pending migrations; returns the names applied. */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const applied = await dataSource.runMigrations({ transaction: 'each' });
  return applied.map((m) => m.name);
}

/**
 * Create the database if needed and apply pending migrations; returns the names applied.
 * Used by `npm start` (scripts/migrate.ts) and the api image's migrate entrypoint.
 */
export async function migrateDatabase(url: string, applicationName = 'voltdepot-migrate'): Promise<string[]> {
  await ensureDatabase(url);
  const dataSource = createDataSource({ url, poolSize: 1, applicationName });
  await dataSource.initialize();
  try {
    return await runMigrations(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
