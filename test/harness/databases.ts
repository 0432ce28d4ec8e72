// A fresh database for each test suite, on each store: a SQLite file in a temporary folder, or
// a schema of its own in the test PostgreSQL (selected through search_path in the URL), so runs
// and suites never see each other's rows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PG_URL, skipPostgres } from './services.ts';

export const DIALECTS = ['sqlite', 'postgres'] as const;
export type Dialect = (typeof DIALECTS)[number];

export interface TestDatabase {
  dialect: Dialect;
  /** DATABASE_URL for the service. */
  url: string;
  /** A folder for DATA_DIR (encryption key, media). */
  dataDir: string;
  drop(): Promise<void>;
}

/** The reason to skip a dialect's tests, or false. */
export function skipReason(dialect: Dialect): false | string {
  return dialect === 'postgres' ? skipPostgres : false;
}

export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'socialapi-test-'));
  if (dialect === 'sqlite') {
    return { dialect, url: `sqlite:${join(dataDir, 'test.db')}`, dataDir, drop: () => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })) };
  }
  const schema = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    dialect,
    url: url.toString(),
    dataDir,
    async drop() {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
