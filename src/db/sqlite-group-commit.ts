// A Kysely driver for SQLite that commits transactions in groups.
//
// Each commit writes every page it changed to the WAL: a new post (a post row, three targets,
// a job, their indexes) changed a dozen pages, and its commit cost more than all its inserts
// together (about 130-155 µs of 280 µs, measured under `npm run bench`). Consecutive posts
// change the same pages (ids grow with time), so committing many at once writes each page once.
//
// How: one process has one SQLite connection, used by one caller at a time (the lock below).
// The first caller that writes opens the group with BEGIN IMMEDIATE; each Kysely transaction
// runs inside a savepoint of it (rolled back alone if it fails); a statement outside a
// transaction runs inside the group too. The group commits in the next turn of the event loop,
// after the callbacks ready now (other requests, other jobs) have joined it, or sooner once it
// holds MAX_MEMBERS callers or is MAX_AGE_MS old, so that under steady load it commits often.
// No caller returns before the commit of the group it took part in has succeeded: if that
// commit fails, every one of them fails, as its own commit would have. A read outside any group
// runs on its own, without waiting.
import { SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type CompiledQuery, type DatabaseConnection, type Dialect, type DatabaseIntrospector, type Driver, type Kysely, type QueryResult } from 'kysely';
import { asError } from '../lib/errors.ts';
import type { SqliteHandle } from './sqlite-bridge.ts';

const MAX_MEMBERS = 64;
const MAX_AGE_MS = 10;
const SAVEPOINT = 'socialapi_tx';

/** A FIFO lock that knows how many wait for it. */
class Lock {
  #held = false;
  readonly #queue: Array<() => void> = [];

  get waiting(): number {
    return this.#queue.length;
  }

  acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#queue.push(resolve));
  }

  release(): void {
    const next = this.#queue.shift();
    if (next) next();
    else this.#held = false;
  }
}

interface Group {
  members: number;
  openedAt: number;
  committing: boolean;
  /** A commit is planned for the next turn of the event loop. */
  scheduled: boolean;
  /** Settles when the group's commit has succeeded or failed. */
  committed: Promise<void>;
  settle(error: Error | null): void;
}

function newGroup(): Group {
  let resolve = () => {};
  let reject: (error: Error) => void = () => {};
  const committed = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Awaited by the members; a group nobody waits on must not become an unhandled rejection.
  committed.catch(() => {});
  return { members: 0, openedAt: performance.now(), committing: false, scheduled: false, committed, settle: (error) => (error ? reject(error) : resolve()) };
}

/** A synchronous step as a promise, its exception as a rejection. */
function settled(step: () => void): Promise<void> {
  try {
    step();
    return Promise.resolve();
  } catch (error) {
    return Promise.reject(asError(error));
  }
}

class GroupCommitDriver implements Driver {
  readonly #db: SqliteHandle;
  readonly #lock = new Lock();
  readonly #connection: DatabaseConnection;
  /** The open group, if any. */
  #group: Group | null = null;
  /** The group the current holder of the connection took part in. */
  #joined: Group | null = null;

  constructor(db: SqliteHandle) {
    this.#db = db;
    this.#connection = {
      executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        try {
          return Promise.resolve(this.#execute<R>(query));
        } catch (error) {
          return Promise.reject(asError(error));
        }
      },
      streamQuery: () => {
        throw new Error('streaming is not supported on SQLite here');
      },
    };
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#lock.acquire();
    this.#joined = null;
    return this.#connection;
  }

  beginTransaction(): Promise<void> {
    return settled(() => {
      this.#join();
      this.#run(`savepoint ${SAVEPOINT}`);
    });
  }

  commitTransaction(): Promise<void> {
    return settled(() => this.#run(`release ${SAVEPOINT}`));
  }

  rollbackTransaction(): Promise<void> {
    return settled(() => {
      if (!this.#db.inTransaction()) return; // SQLite rolled the whole group back: see #lost()
      this.#run(`rollback to ${SAVEPOINT}`);
      this.#run(`release ${SAVEPOINT}`);
    });
  }

  async releaseConnection(): Promise<void> {
    const group = this.#joined;
    this.#joined = null;
    this.#lock.release();
    if (!group) return;
    if (!group.committing) {
      if (group.members >= MAX_MEMBERS || performance.now() - group.openedAt >= MAX_AGE_MS) {
        this.#commitSoon(group);
      } else if (!group.scheduled) {
        // Commit once the callbacks ready in this turn of the event loop (other requests, other
        // jobs) have had their turn: those that write join this group meanwhile.
        group.scheduled = true;
        setImmediate(() => this.#commitSoon(group));
      }
    }
    await group.committed;
  }

  async destroy(): Promise<void> {
    await this.#lock.acquire();
    try {
      const group = this.#group;
      if (group && !group.committing) {
        group.committing = true;
        this.#commitNow(group);
      }
    } finally {
      await this.#db.close();
    }
  }

  #execute<R>(query: CompiledQuery): QueryResult<R> {
    const stmt = this.#db.prepare(query.sql);
    // A write opens (or joins) the group; a read joins one that is open, since it may see what
    // the group wrote and must not answer before that is committed.
    if (this.#group || query.query.kind !== 'SelectQueryNode') this.#join();
    try {
      if (stmt.returnsRows) return { rows: stmt.all(query.parameters) as R[] };
      const { changes, lastInsertRowid } = stmt.run(query.parameters);
      return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
    } catch (error) {
      this.#lost(error);
      throw error;
    }
  }

  /** Makes the current holder a member of the open group, opening one if needed. */
  #join(): void {
    if (this.#joined) return;
    if (!this.#group) {
      this.#db.prepare('begin immediate').run([]);
      this.#group = newGroup();
    }
    this.#group.members++;
    this.#joined = this.#group;
  }

  /** Some errors (an I/O error, a full disk) make SQLite roll back the whole transaction. */
  #lost(error: unknown): void {
    const group = this.#group;
    if (!group || this.#db.inTransaction()) return;
    this.#group = null;
    group.committing = true;
    group.settle(asError(error));
  }

  #run(sqlText: string): void {
    try {
      this.#db.prepare(sqlText).run([]);
    } catch (error) {
      this.#lost(error);
      throw error;
    }
  }

  /** Commits after the callers already waiting for the connection, who join the group meanwhile. */
  #commitSoon(group: Group): void {
    if (group.committing) return;
    group.committing = true;
    void this.#commit(group);
  }

  async #commit(group: Group): Promise<void> {
    await this.#lock.acquire();
    try {
      this.#commitNow(group);
    } finally {
      this.#lock.release();
    }
  }

  #commitNow(group: Group): void {
    if (this.#group !== group) return; // lost meanwhile, and already settled
    this.#group = null;
    try {
      this.#db.prepare('commit').run([]);
      group.settle(null);
    } catch (error) {
      if (this.#db.inTransaction()) {
        try {
          this.#db.prepare('rollback').run([]);
        } catch {
          // the connection is unusable; the next caller's statement reports it
        }
      }
      group.settle(asError(error));
    }
  }
}

// One connection per database file per process. Two connections to one file in one process
// would deadlock: node:sqlite is synchronous, so a connection waiting for the write lock blocks
// the thread that the connection holding it needs in order to commit. Stores opened on the same
// file in one process (the CLI's helpers, tests) share the connection and its driver instead.
const shared = new Map<string, { driver: GroupCommitDriver; users: number }>();

function sharedDriver(file: string, open: () => SqliteHandle): Driver {
  // An in-memory database is private to its connection: never shared.
  const key = file === ':memory:' ? Symbol('memory') : file;
  let entry = typeof key === 'string' ? shared.get(key) : undefined;
  if (!entry) {
    entry = { driver: new GroupCommitDriver(open()), users: 0 };
    if (typeof key === 'string') shared.set(key, entry);
  }
  entry.users++;
  const { driver } = entry;
  const current = entry;
  let destroyed = false;
  return {
    init: () => driver.init(),
    acquireConnection: () => driver.acquireConnection(),
    beginTransaction: () => driver.beginTransaction(),
    commitTransaction: () => driver.commitTransaction(),
    rollbackTransaction: () => driver.rollbackTransaction(),
    releaseConnection: () => driver.releaseConnection(),
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      if (--current.users > 0) return;
      if (typeof key === 'string' && shared.get(key) === current) shared.delete(key);
      await driver.destroy();
    },
  };
}

/**
 * Kysely's SQLite dialect (compiler, adapter, introspector) with the group-commit driver, on
 * this process's one connection to `file` (opened with `open` when there is none yet).
 */
export function groupCommitSqliteDialect(file: string, open: () => SqliteHandle): Dialect {
  return {
    createDriver: () => sharedDriver(file, open),
    createQueryCompiler: () => new SqliteQueryCompiler(),
    createAdapter: () => new SqliteAdapter(),
    createIntrospector: (db: Kysely<unknown>): DatabaseIntrospector => new SqliteIntrospector(db),
  };
}
