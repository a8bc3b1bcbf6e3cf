/**
 * One-shot entrypoint of the api image: apply pending migrations, then exit
 * (`node dist/apps/api/apps/api/src/migrate.main.js`; docker compose runs it before the services).
 */
import { migrateDatabase, redactUrl } from '@voltdepot/server-database';

const url = process.env['DATABASE_URL'];
if (!url) {
  console.error('DATABASE_URL is required');
  process.exit(1);
}
migrateDatabase(url).then(
  (applied) => {
    console.log(
      applied.length
        ? `migrations applied: ${applied.join(', ')}`
        : `database ${redactUrl(url)} is up to date`,
    );
  },
  (error: Error) => {
    console.error(`migration failed: ${error.message}`);
    process.exit(1);
  },
);
