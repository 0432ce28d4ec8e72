// Kysely's SqliteDialect expects better-sqlite3's interface. Node 24 ships SQLite itself
// (`node:sqlite`), which needs no native addon built for one Node ABI; this bridge adapts it.
import { DatabaseSync, type StatementSync, type SQLInputValue } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

function toSqlite(value: unknown): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'bigint') return value;
  if (value instanceof Uint8Array) return value;
  if (value instanceof Date) return value.getTime();
  throw new TypeError(`cannot bind a ${typeof value} to SQLite`);
}

class BridgedStatement implements SqliteStatement {
  readonly reader: boolean;
  readonly #stmt: StatementSync;

  constructor(stmt: StatementSync) {
    this.#stmt = stmt;
    this.reader = stmt.columns().length > 0;
  }

  all(parameters: readonly unknown[]): unknown[] {
    return this.#stmt.all(...parameters.map(toSqlite));
  }

  run(parameters: readonly unknown[]) {
    const result = this.#stmt.run(...parameters.map(toSqlite));
    return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
  }

  iterate(parameters: readonly unknown[]): IterableIterator<unknown> {
    return this.#stmt.iterate(...parameters.map(toSqlite));
  }
}

/** Opens a SQLite file for Kysely: WAL, a busy timeout, foreign keys, cached statements. */
export function openSqlite(file: string): SqliteDatabase {
  const db = new DatabaseSync(file);
  // WAL lets readers in other processes (a separate worker, the CLI) go on while one writes;
  // the busy timeout makes a writer wait for the lock instead of failing at once.
  db.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;');
  const cache = new Map<string, BridgedStatement>();
  return {
    close: () => db.close(),
    prepare(sqlText: string): SqliteStatement {
      // Kysely opens transactions with a plain `begin` (deferred): a transaction that reads and
      // then writes could then fail with SQLITE_BUSY when another process wrote in between.
      // `begin immediate` takes the write lock up front, so writers queue on the busy timeout.
      const text = sqlText === 'begin' ? 'begin immediate' : sqlText;
      let stmt = cache.get(text);
      if (!stmt) {
        stmt = new BridgedStatement(db.prepare(text));
        if (cache.size > 500) cache.clear();
        cache.set(text, stmt);
      }
      return stmt;
    },
  };
}
