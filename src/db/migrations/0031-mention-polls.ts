// Mentions of platforms that send no mention webhooks (a definition's `pollMentions`: Bluesky)
// are polled per account. Each polled account has a row: when it is due next (or claimed until,
// while a run reads it), and since when a mention counts as new — the time the account was first
// connected, so the mentions from before it connected are not announced. Gone with the account.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mention_polls')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('poll_at', 'bigint', (c) => c.notNull())
    .addColumn('since', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mention_polls').execute();
}
