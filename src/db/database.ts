// Opens the store: Kysely over SQLite (node:sqlite) or PostgreSQL (pg). The few places where the
// two differ are capability flags on the Store, never `if (dialect)` inside queries.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kysely, Migrator, sql } from 'kysely';
import pg from 'pg';
import { DEFAULT_POOL_MAX, type DatabaseTarget } from '../config.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';
import { PostgresStoreDialect } from './postgres-driver.ts';
import { openSqlite } from './sqlite-bridge.ts';
import { groupCommitSqliteDialect } from './sqlite-group-commit.ts';
import { postgresNotices, sqliteNotices, type Notices } from './notices.ts';
import { messageOf } from '../lib/errors.ts';

export interface StoreCapabilities {
  /** `FOR UPDATE SKIP LOCKED` exists (PostgreSQL); on SQLite writes are serialized anyway. */
  skipLocked: boolean;
  /** Cross-process wake-ups through LISTEN/NOTIFY (PostgreSQL). */
  listenNotify: boolean;
  /** Inserts, updates and deletes inside WITH (PostgreSQL): several writes in one statement. */
  writableCte: boolean;
}

export interface Store {
  db: Kysely<Database>;
  kind: DatabaseTarget['kind'];
  caps: StoreCapabilities;
  /** Tells every process on this store that something it may remember changed. */
  notices: Notices;
  /** A dedicated PostgreSQL connection for LISTEN; null on SQLite. */
  listenClient: (() => Promise<pg.Client>) | null;
  /** The PostgreSQL pool's live counters, for metrics; absent on SQLite (one connection). */
  pool?: PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

export class StoreUnavailableError extends Error {}

// int8 columns hold epoch milliseconds, well inside Number's exact range.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

/** A description of the target that never includes a password. */
export function describeTarget(target: DatabaseTarget): string {
  if (target.kind === 'sqlite') return `sqlite:${target.file}`;
  const url = new URL(target.url);
  return `postgres://${url.hostname || 'localhost'}:${url.port || '5432'}${url.pathname}`;
}

export function openStore(target: DatabaseTarget): Store {
  if (target.kind === 'sqlite') {
    if (target.file !== ':memory:') mkdirSync(dirname(target.file), { recursive: true });
    const db = new Kysely<Database>({ dialect: groupCommitSqliteDialect(target.file, () => openSqlite(target.file)) });
    return {
      db,
      kind: 'sqlite',
      caps: { skipLocked: false, listenNotify: false, writableCte: false },
      notices: sqliteNotices(target.file === ':memory:' ? null : target.file),
      listenClient: null,
      close: () => db.destroy(),
    };
  }
  const pool = new pg.Pool({ connectionString: target.url, max: target.poolMax ?? DEFAULT_POOL_MAX, connectionTimeoutMillis: 5000 });
  // An idle client that loses its server emits on the pool; without a listener that would
  // crash the process. The next query reports the failure where it can be handled.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresStoreDialect(pool) });
  // The LISTEN connection is idle for long stretches: TCP keepalives stop a NAT or load balancer
  // between nodes and the database from dropping it silently, which would leave a node's key
  // cache deaf to revocations (until its entries expire) without any error to say so.
  const listenClient = async () => {
    const client = new pg.Client({ connectionString: target.url, connectionTimeoutMillis: 5000, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    await client.connect();
    return client;
  };
  return {
    db,
    kind: 'postgres',
    caps: { skipLocked: true, listenNotify: true, writableCte: true },
    notices: postgresNotices(db, listenClient),
    listenClient,
    pool,
    close: () => db.destroy(),
  };
}

/** Checks that the store answers; throws StoreUnavailableError with one readable line if not. */
export async function pingStore(store: Store, target: DatabaseTarget): Promise<void> {
  try {
    await sql`select 1`.execute(store.db);
  } catch (error) {
    const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? `${error.code}: ` : '';
    const reason = code + messageOf(error);
    throw new StoreUnavailableError(`cannot reach the database at ${describeTarget(target)} (${reason.split('\n')[0]})`);
  }
}

/** Applies every pending migration; returns the names applied. */
export async function migrateToLatest(store: Store): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in every schema it can see; on PostgreSQL, pin them
  // to the schema this connection works in, or another schema's tables would be taken for ours.
  const schema =
    store.kind === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    ...(schema ? { migrationTableSchema: schema } : {}),
    // Migration numbers are handed out ahead and land in any order (0011 after 0012–0019): one
    // that a store has not run is run, whatever its place among those it has.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${messageOf(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
