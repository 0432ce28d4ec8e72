// Kysely's driver for pg, with statements prepared once per connection.
//
// PostgreSQL parses, analyses and plans every unnamed statement it receives. Our statements are
// few and repeat (a query's SQL text is the same on every call, only its values change), so each
// distinct text of a select, insert, update or delete gets a name: pg then sends its Parse once
// per connection and afterwards only binds values (the server keeps the statement, and after a
// few runs a generic plan). The names are per process and bounded: a text past MAX_NAMED (say,
// `in (…)` lists of many lengths) runs unnamed, as before.
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from 'kysely';
import type pg from 'pg';
import { OwnSchemaPostgresDialect } from './own-schema-introspector.ts';

/** Prepared statements a connection may hold at most (each costs the server some memory). */
const MAX_NAMED = 300;
const NAMED_KINDS = new Set(['SelectQueryNode', 'InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode']);

/** SQL text → statement name, shared by every connection of the process. */
const names = new Map<string, string>();
let issued = 0;

function nameOf(query: CompiledQuery): string | undefined {
  if (!NAMED_KINDS.has(query.query.kind)) return undefined;
  let name = names.get(query.sql);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `socialapi_${(issued++).toString(36)}`;
    names.set(query.sql, name);
  }
  return name;
}

// A prepared statement whose result columns changed under it (a migration by another node added
// a column to a `select *`'s table) fails with this; the text gets a new name, so the next run
// prepares it again.
const STALE_PLAN = '0A000';

function isStalePlan(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === STALE_PLAN && /cached plan must not change result type/.test(error.message);
}

class PostgresConnection implements DatabaseConnection {
  readonly client: pg.PoolClient;
  inTransaction = false;

  constructor(client: pg.PoolClient) {
    this.client = client;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const values = [...query.parameters];
    const name = nameOf(query);
    let result: pg.QueryResult;
    try {
      result = await (name === undefined ? this.client.query(query.sql, values) : this.client.query({ name, text: query.sql, values }));
    } catch (error) {
      if (name === undefined || !isStalePlan(error)) throw error;
      names.delete(query.sql);
      // Inside a transaction the error has aborted it: the caller's retry prepares it anew.
      if (this.inTransaction) throw error;
      result = await this.client.query(query.sql, values);
    }
    const { command, rowCount } = result;
    const changed = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
    return { numAffectedRows: changed ? BigInt(rowCount ?? 0) : undefined, rows: (result.rows ?? []) as R[] };
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on PostgreSQL here');
  }
}

function own(connection: DatabaseConnection): PostgresConnection {
  if (!(connection instanceof PostgresConnection)) throw new Error('not a connection of this driver');
  return connection;
}

class NamedStatementsDriver implements Driver {
  readonly #pool: pg.Pool;
  readonly #connections = new WeakMap<pg.PoolClient, PostgresConnection>();

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const client = await this.#pool.connect();
    let connection = this.#connections.get(client);
    if (!connection) {
      connection = new PostgresConnection(client);
      this.#connections.set(client, connection);
    }
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const options = [settings.isolationLevel ? `isolation level ${settings.isolationLevel}` : '', settings.accessMode ?? ''].filter(Boolean).join(' ');
    await connection.executeQuery(CompiledQuery.raw(options ? `start transaction ${options}` : 'begin'));
    own(connection).inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    own(connection).inTransaction = false;
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    own(connection).inTransaction = false;
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    own(connection).client.release();
    return Promise.resolve();
  }

  async destroy(): Promise<void> {
    await this.#pool.end();
  }
}

/** Kysely's PostgreSQL dialect (looking only at its own schema) with the driver above. */
export class PostgresStoreDialect extends OwnSchemaPostgresDialect {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    super({ pool });
    this.#pool = pool;
  }

  override createDriver(): Driver {
    return new NamedStatementsDriver(this.#pool);
  }
}
