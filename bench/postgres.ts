// A schema of its own in the given PostgreSQL for one bench run, selected through search_path in
// the URL (the service's pool sends it as a startup option), and dropped afterwards.
import { randomBytes } from 'node:crypto';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrations } from '../src/db/migrations/index.ts';

export interface BenchSchema {
  /** DATABASE_URL for the service, limited to the schema. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function withClient(url: string, task: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await task(client);
  } finally {
    await client.end();
  }
}

// Kysely's Migrator decides whether its own tables exist by looking in every schema unless it is
// given one. In a database where another schema already holds them (a test suite running at the
// same time, a run that did not clean up), the server's own migration then skips creating them
// and fails on `relation "kysely_migration_lock" does not exist`. Migrating here first, with the
// schema named, leaves the server nothing to do but find every migration applied.
async function migrate(url: string, schema: string): Promise<void> {
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) });
  try {
    const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(migrations) }, migrationTableSchema: schema });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error('the migration failed', { cause: error });
  } finally {
    await db.destroy();
  }
}

// Every bench run and test suite creates and drops a schema; where autovacuum is off (as on the
// machine these figures come from), the dead catalog rows pile up (over 100,000 in pg_attribute
// after a day) and slow every new connection's catalog reads and the planner, run after run.
// Vacuumed first, best effort: a role that does not own the catalogs gets a warning, not an error.
const CATALOGS = ['pg_attribute', 'pg_class', 'pg_depend', 'pg_type', 'pg_index', 'pg_constraint', 'pg_trigger', 'pg_attrdef', 'pg_namespace'];

export async function createBenchSchema(baseUrl: string): Promise<BenchSchema> {
  const name = `bench_${randomBytes(6).toString('hex')}`;
  await withClient(baseUrl, async (client) => {
    await client.query(`VACUUM ${CATALOGS.map((table) => `pg_catalog.${table}`).join(', ')}`).catch(() => undefined);
    await client.query(`CREATE SCHEMA ${name}`);
  });
  const drop = () => withClient(baseUrl, (client) => client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`));
  const separator = baseUrl.includes('?') ? '&' : '?';
  const url = `${baseUrl}${separator}options=${encodeURIComponent(`-c search_path=${name}`)}`;
  try {
    await migrate(url, name);
  } catch (error) {
    await drop();
    throw error;
  }
  return { url, name, drop };
}
