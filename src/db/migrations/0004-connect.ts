// Connecting accounts: OAuth states (single use, 10 minutes), pending connections that wait for
// a choice (30 minutes), the cached health of each account, and raw inbound platform webhooks.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('connect_states')
    // SHA-256 of the state handed to the platform: a leaked database cannot replay a callback.
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('flavour', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('redirect_url', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('connect_states_expires').on('connect_states').column('expires_at').execute();

  await db.schema
    .createTable('pending_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('flavour', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('redirect_url', 'text')
    .addColumn('user_token_enc', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .execute();
  await db.schema.createIndex('pending_connections_org').on('pending_connections').columns(['organization_id', 'id']).execute();

  await db.schema
    .createTable('account_health')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('report', 'text', (c) => c.notNull())
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('platform_webhook_events')
    // SHA-256 of the raw body: a platform's retry of the same delivery is stored once.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('object', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('processed_at', 'bigint')
    .execute();
  await db.schema.createIndex('platform_webhook_events_received').on('platform_webhook_events').column('received_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['platform_webhook_events', 'account_health', 'pending_connections', 'connect_states']) {
    await db.schema.dropTable(table).execute();
  }
}
