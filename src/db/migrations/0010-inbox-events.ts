// The inbox's record of inbound platform events (comments, mentions …), written by the
// platform_event.process job. One row per account and platform event: the unique index on
// (account_id, kind, dedupe_key) is what keeps a Meta retry, even a re-batched one, from
// emitting twice. Its id is the `eventId` of the outgoing comment.received / mention.received.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('inbox_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    // The platform's own id of what happened (a comment id; a mention's comment or media id).
    .addColumn('dedupe_key', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('inbox_events_dedupe').on('inbox_events').columns(['account_id', 'kind', 'dedupe_key']).unique().execute();
  // GET /inbox/events, newest first: by organization, by kind, by account.
  await db.schema.createIndex('inbox_events_org').on('inbox_events').columns(['organization_id', 'id']).execute();
  await db.schema.createIndex('inbox_events_org_kind').on('inbox_events').columns(['organization_id', 'kind', 'id']).execute();
  await db.schema.createIndex('inbox_events_account').on('inbox_events').columns(['account_id', 'id']).execute();
  // The job finds every organization's account for a Page or Instagram account id.
  await db.schema.createIndex('accounts_platform_user').on('accounts').columns(['platform', 'platform_user_id']).execute();
  // The worker start re-runs the rows left `unhandled`.
  await db.schema
    .createIndex('platform_webhook_events_unhandled')
    .on('platform_webhook_events')
    .column('received_at')
    .where(sql.ref('status'), '=', 'unhandled')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['platform_webhook_events_unhandled', 'accounts_platform_user']) await db.schema.dropIndex(name).execute();
  await db.schema.dropTable('inbox_events').execute();
}
