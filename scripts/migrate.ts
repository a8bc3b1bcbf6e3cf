/** Apply pending database migrations (creating the database first if it does not exist). */
import { createDataSource, ensureDatabase, redactUrl, runMigrations } from '@voltdepot/server-database';

async function main() {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('DATABASE_URL is required (e.g. postgres://postgres@127.0.0.1:5432/voltdepot)');
  await ensureDatabase(url);
  const dataSource = createDataSource({ url, poolSize: 1, applicationName: 'voltdepot-migrate' });
  await dataSource.initialize();
  try {
    const applied = await runMigrations(dataSource);
    console.log(
      applied.length
        ? `migrations applied: ${applied.join(', ')}`
        : `database ${redactUrl(url)} is up to date`,
    );
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error) => {
  console.error(`migration failed: ${(error as Error).message}`);
  process.exit(1);
});
