// node:sqlite (shipped with Node 24, no native addon built for one Node ABI) under Kysely.
// Statements are prepared once and cached; the driver that runs them is sqlite-group-commit.ts.
import { DatabaseSync, type StatementSync, type SQLInputValue } from 'node:sqlite';
import { startCheckpointer } from './sqlite-checkpointer.ts';

function toSqlite(value: unknown): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'bigint') return value;
  if (value instanceof Uint8Array) return value;
  if (value instanceof Date) return value.getTime();
  throw new TypeError(`cannot bind a ${typeof value} to SQLite`);
}

export class BridgedStatement {
  readonly #stmt: StatementSync;
  /** Whether the statement returns rows (a select, or a write with `returning`). */
  readonly returnsRows: boolean;

  constructor(stmt: StatementSync) {
    this.#stmt = stmt;
    this.returnsRows = stmt.columns().length > 0;
  }

  all(parameters: readonly unknown[]): unknown[] {
    return this.#stmt.all(...parameters.map(toSqlite));
  }

  run(parameters: readonly unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint } {
    const result = this.#stmt.run(...parameters.map(toSqlite));
    return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
  }
}

export interface SqliteHandle {
  prepare(sqlText: string): BridgedStatement;
  /** Whether a transaction is open on the connection (SQLite may roll one back by itself). */
  inTransaction(): boolean;
  /** Resolves once the checkpoint thread's connection is closed too (the files may then be removed). */
  close(): Promise<void>;
}

const STATEMENT_CACHE = 500;

/** Opens a SQLite file: WAL, a busy timeout, foreign keys, cached statements. */
export function openSqlite(file: string): SqliteHandle {
  const db = new DatabaseSync(file);
  // WAL lets readers in other processes (a separate worker, the CLI) go on while one writes;
  // the busy timeout makes a writer wait for the lock instead of failing at once.
  db.exec('PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;');
  const cache = new Map<string, BridgedStatement>();
  let open = true;
  const checkpointer = file === ':memory:' ? null : startCheckpointer(file, (pages) => open && db.exec(`PRAGMA wal_autocheckpoint = ${pages}`));
  return {
    prepare(sqlText) {
      let stmt = cache.get(sqlText);
      if (!stmt) {
        stmt = new BridgedStatement(db.prepare(sqlText));
        if (cache.size > STATEMENT_CACHE) cache.clear();
        cache.set(sqlText, stmt);
      }
      return stmt;
    },
    inTransaction: () => db.isTransaction,
    close: async () => {
      open = false;
      const stopped = checkpointer?.stop();
      db.close();
      await stopped;
    },
  };
}
