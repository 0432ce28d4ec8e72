// Direct messages (contract "Direct messages", DESIGN §2): one conversation per account and
// person (a Messenger PSID, an Instagram IGSID, later a WhatsApp number), its messages, and which
// accounts had their conversations synced from the platform. The platform is a column, not a
// table per platform, so WhatsApp conversations share the same rows and routes.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('conversations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('platform', 'text', (c) => c.notNull())
    // The platform's thread id (`t_…`, Instagram's base64 id); null until a sync has seen it.
    .addColumn('platform_conversation_id', 'text')
    .addColumn('participant_id', 'text', (c) => c.notNull())
    .addColumn('participant_username', 'text')
    .addColumn('participant_name', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    // Inbound messages not yet marked read.
    .addColumn('unread', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_message_at', 'bigint', (c) => c.notNull())
    .addColumn('last_message_text', 'text')
    // The person's last message: the 24-hour and 7-day windows count from it.
    .addColumn('last_inbound_at', 'bigint')
    // While a send is in flight its echo may arrive first: the echo waits until this has passed.
    .addColumn('sending_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('conversations_participant').on('conversations').columns(['account_id', 'participant_id']).unique().execute();
  // GET /inbox/conversations, latest first, narrowed by account, platform or status.
  await db.schema.createIndex('conversations_org_latest').on('conversations').columns(['organization_id', 'last_message_at', 'id']).execute();
  await db.schema.createIndex('conversations_org_status_latest').on('conversations').columns(['organization_id', 'status', 'last_message_at', 'id']).execute();
  await db.schema.createIndex('conversations_org_platform_latest').on('conversations').columns(['organization_id', 'platform', 'last_message_at', 'id']).execute();
  await db.schema.createIndex('conversations_account_latest').on('conversations').columns(['account_id', 'last_message_at', 'id']).execute();
  await db.schema.createIndex('conversations_account_status_latest').on('conversations').columns(['account_id', 'status', 'last_message_at', 'id']).execute();

  await db.schema
    .createTable('messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('conversation_id', 'text', (c) => c.notNull().references('conversations.id').onDelete('cascade'))
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('platform_message_id', 'text')
    .addColumn('text', 'text')
    // JSON array of {type, url}.
    .addColumn('attachments', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'bigint', (c) => c.notNull())
    // The person's reaction (emoji), null when none.
    .addColumn('reaction', 'text')
    // JSON of a postback ({title, payload}); null for a written message.
    .addColumn('postback', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // A platform message is stored once per account: a retried webhook or a second sync adds nothing.
  await db.schema.createIndex('messages_platform_id').on('messages').columns(['account_id', 'platform_message_id']).unique().execute();
  // One page of a conversation's history, `before` a position: one range scan, whatever its length.
  await db.schema.createIndex('messages_conversation_sent').on('messages').columns(['conversation_id', 'sent_at', 'id']).execute();

  await db.schema
    .createTable('conversation_syncs')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('synced_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('conversation_syncs').execute();
  await db.schema.dropTable('messages').execute();
  await db.schema.dropTable('conversations').execute();
}
