import { Client } from 'pg';

/** Replace the database name in a PostgreSQL URL. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!name) throw new Error(`database URL has no database name: ${redactUrl(url)}`);
  return name;
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<unparseable url>';
  }
}

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;

function quoteIdent(name: string): string {
  if (!IDENT.test(name)) throw new Error(`invalid database name '${name}'`);
  return `"${name}"`;
}

/** Run `fn` on a connection to the server's maintenance database. */
export async function withAdminClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function databaseExists(url: string, name: string): Promise<boolean> {
  return withAdminClient(
    url,
    async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1,
  );
}

/** Create the database if missing (idempotent, safe against a concurrent creator). */
export async function ensureDatabase(url: string, template?: string): Promise<void> {
  const name = databaseName(url);
  await withAdminClient(url, async (c) => {
    const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount) return;
    try {
      await c.query(
        `CREATE DATABASE ${quoteIdent(name)}${template ? ` TEMPLATE ${quoteIdent(template)}` : ''}`,
      );
    } catch (error) {
      if ((error as { code?: string }).code !== '42P04') throw error; // created meanwhile
    }
  });
}

export async function dropDatabase(url: string, name: string): Promise<void> {
  await withAdminClient(url, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
  });
}
