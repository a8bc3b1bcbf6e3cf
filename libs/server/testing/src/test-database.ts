import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  allMigrations,
  createDataSource,
  databaseExists,
  dropDatabase,
  ensureDatabase,
  withAdminClient,
  withDatabase,
} from '@voltdepot/server-database';
import { testEnv } from './test-env';

const TEMPLATE_LOCK = 7_301_001;
const STALE_AFTER_SECONDS = 3 * 3600;

/** Name of the migrated template: changes whenever the migration list changes. */
export function templateName(): string {
  const hash = createHash('sha256')
    .update(allMigrations.map((m) => m.name).join(','))
    .digest('hex')
    .slice(0, 12);
  return `vd_tpl_${hash}`;
}

async function ensureTemplate(baseUrl: string): Promise<string> {
  const template = templateName();
  await withAdminClient(baseUrl, async (admin) => {
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      await sweepStaleTestDatabases(admin);
      if (await databaseExists(baseUrl, template)) return;
      const building = `${template}_build`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${building}"`);
      const ds = createDataSource({ url: withDatabase(baseUrl, building), poolSize: 1 });
      await ds.initialize();
      try {
        await ds.runMigrations({ transaction: 'each' });
      } finally {
        await ds.destroy();
      }
      // Publish the template atomically: a half-migrated template is never visible under its name.
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  });
  return template;
}

async function sweepStaleTestDatabases(admin: {
  query: (sql: string, params?: unknown[]) => Promise<{ rows: { datname: string }[] }>;
}) {
  const { rows } = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE 'vd_t\\_%'`);
  const now = Math.floor(Date.now() / 1000);
  for (const { datname } of rows) {
    const created = Number(datname.split('_')[2]);
    if (Number.isFinite(created) && now - created > STALE_AFTER_SECONDS) {
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  }
}

export type TestDatabase = {
  url: string;
  name: string;
  /** A data source on the test database (initialized). */
  dataSource: DataSource;
  drop(): Promise<void>;
};

/**
 * A fresh, fully migrated database for one test file, cloned from a template that is migrated once
 * per migration set. Drop it in afterAll.
 */
export async function createTestDatabase(
  options: { entities?: DataSource['options']['entities'] } = {},
): Promise<TestDatabase> {
  const baseUrl = testEnv().databaseUrl;
  const template = await ensureTemplate(baseUrl);
  const name = `vd_t_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
  const url = withDatabase(baseUrl, name);
  await ensureDatabase(url, template);
  const dataSource = createDataSource({ url, poolSize: 5, entities: options.entities });
  await dataSource.initialize();
  return {
    url,
    name,
    dataSource,
    async drop() {
      if (dataSource.isInitialized) await dataSource.destroy();
      await dropDatabase(baseUrl, name);
    },
  };
}
