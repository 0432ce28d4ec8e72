// Idempotency keys of the operations that write to a platform (http/idempotency.ts): one row per
// organization and x-request-id, claimed before the handler runs. `call_started_at` is the
// marker committed before the request's first platform write, `last_call_at` before its latest:
// a running row whose marker is older than a platform call can take belongs to a request that
// died, and what it may have made is looked for instead of being made again.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('request_keys')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('answer_status', 'integer')
    .addColumn('answer_body', 'text')
    .addColumn('call_started_at', 'bigint')
    .addColumn('last_call_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('request_keys_pk', ['organization_id', 'key'])
    .execute();
  await db.schema.createIndex('request_keys_created').on('request_keys').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('request_keys').execute();
}
