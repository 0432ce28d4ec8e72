// Organizations, API keys, accounts and the jobs table. Column types are chosen to mean the same
// on both stores: `bigint` and `smallint` have integer affinity in SQLite, `text` is text.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('approval_required', 'smallint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('rate_limit', 'integer')
    .addColumn('approval_required', 'smallint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_org').on('api_keys').columns(['organization_id', 'id']).execute();

  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('platform_user_id', 'text', (c) => c.notNull())
    .addColumn('username', 'text')
    .addColumn('display_name', 'text')
    .addColumn('avatar_url', 'text')
    .addColumn('external_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('approval_required', 'smallint', (c) => c.notNull().defaultTo(0))
    .addColumn('access_token_enc', 'text')
    .addColumn('refresh_token_enc', 'text')
    .addColumn('token_expires_at', 'bigint')
    .addColumn('scopes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('connected_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // One account per platform user within an organization: reconnecting updates it in place.
  await db.schema
    .createIndex('accounts_org_platform_user')
    .on('accounts')
    .columns(['organization_id', 'platform', 'platform_user_id'])
    .unique()
    .execute();
  await db.schema.createIndex('accounts_org_external').on('accounts').columns(['organization_id', 'external_id']).execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('locked_by', 'text')
    .addColumn('last_error', 'text')
    .addColumn('dedupe_key', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The claim query reads due pending jobs by run_at, and running jobs whose lease has passed
  // by locked_until; each partial index holds only the rows its half of the query can want.
  await db.schema
    .createIndex('jobs_due')
    .on('jobs')
    .column('run_at')
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema
    .createIndex('jobs_leased')
    .on('jobs')
    .column('locked_until')
    .where(sql.ref('status'), '=', 'running')
    .execute();
  await db.schema
    .createIndex('jobs_dedupe')
    .on('jobs')
    .column('dedupe_key')
    .unique()
    .where(sql.ref('status'), '<>', 'failed')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['jobs', 'accounts', 'api_keys', 'organizations']) {
    await db.schema.dropTable(table).execute();
  }
}
