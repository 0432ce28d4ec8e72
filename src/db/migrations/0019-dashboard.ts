// The dashboard (issue 19): single-use sign-in links and browser sessions, both kept only as the
// SHA-256 of their secret, so a copy of the store signs nobody in. A session is revoked by
// setting revoked_at (sign-out, or `socialapi dashboard revoke`). Posts gain who reviewed them
// and when, for approvals and rejections alike (approved_at alone is cleared by an edit).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dashboard_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('email', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();

  await db.schema
    .createTable('dashboard_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('email', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('dashboard_sessions_org').on('dashboard_sessions').columns(['organization_id', 'id']).execute();

  await db.schema.alterTable('posts').addColumn('reviewed_by', 'text').execute();
  await db.schema.alterTable('posts').addColumn('reviewed_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('posts').dropColumn('reviewed_at').execute();
  await db.schema.alterTable('posts').dropColumn('reviewed_by').execute();
  await db.schema.dropTable('dashboard_sessions').execute();
  await db.schema.dropTable('dashboard_links').execute();
}
