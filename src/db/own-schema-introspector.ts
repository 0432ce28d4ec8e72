// Kysely's PostgreSQL introspector reads every schema on the server and, row by row, calls
// has_schema_privilege() and pg_get_serial_sequence() with schema *names*. A schema another
// session drops between the catalog scan and those lookups fails the whole query with
// `schema "…" does not exist`. The migrator asks the introspector whether its bookkeeping tables
// exist at every start, so a start failed whenever anyone else on the server dropped a schema at
// that moment (the test suites, each in a schema of its own, do so all the time). A store works in
// one schema (its search_path), so it only ever looks there, and by oid, never by name.
import {
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

export class OwnSchemaIntrospector implements DatabaseIntrospector {
  readonly #db: Kysely<unknown>;

  constructor(db: Kysely<unknown>) {
    this.#db = db;
  }

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string | null }>`select current_schema() as name`.execute(this.#db);
    return rows.flatMap((row) => (row.name === null ? [] : [{ name: row.name }]));
  }

  /** Tables and views of the current schema, without their columns (nothing here reads them). */
  async getTables(options?: DatabaseMetadataOptions): Promise<TableMetadata[]> {
    const { rows } = await sql<{ schema: string; name: string; is_view: boolean }>`
      select n.nspname as schema, c.relname as name, c.relkind in ('v', 'm') as is_view
        from pg_catalog.pg_class c
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v', 'm')
       order by c.relname`.execute(this.#db);
    const internal = new Set([DEFAULT_MIGRATION_TABLE, DEFAULT_MIGRATION_LOCK_TABLE]);
    return rows
      .filter((row) => options?.withInternalKyselyTables === true || !internal.has(row.name))
      .map((row) => ({ schema: row.schema, name: row.name, isView: row.is_view, columns: [] }));
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

export class OwnSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
}
