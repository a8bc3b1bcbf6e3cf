/** Apply pending database migrations (creating the database first if it does not exist). */
import { migrateDatabase, redactUrl } from '@voltdepot/server-database';

async function main() {
  const url = process.env['DATABASE_URL'];
  if (!url) throw new Error('DATABASE_URL is required (e.g. postgres://postgres@127.0.0.1:5432/voltdepot)');
  const applied = await migrateDatabase(url);
  console.log(
    applied.length ? `migrations applied: ${applied.join(', ')}` : `database ${redactUrl(url)} is up to date`,
  );
}

main().catch((error) => {
  console.error(`migration failed: ${(error as Error).message}`);
  process.exit(1);
});
