// Ads (issue 18). `ad_objects` records every ad object an organization created or read through
// the service (ad account, campaign, ad set, creative, ad, audience) with the account it was
// reached through and its parent, so that an ad object id the organization has no record of is
// 404 before any platform call. Keyed by (organization, platform id): Meta's ids are unique
// across kinds, so the key alone finds any object (a path id, a body reference, a list's
// parent). The index on (organization, kind, ad account) serves "the organization's ad accounts"
// (the default ad account); the one on account_id, the cascade when an account is removed.
// `account_user_tokens` keeps, sealed, the Facebook user token a facebook Page account was
// connected with: the Marketing API acts as the person, and the Page token cannot.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ad_objects')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('platform_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('ad_account_id', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text')
    // 1 when the service created it (with confirm: true), 0 when it was only read.
    .addColumn('created_here', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('ad_objects_pk', ['organization_id', 'platform_id'])
    .execute();
  await db.schema.createIndex('ad_objects_kind').on('ad_objects').columns(['organization_id', 'kind', 'ad_account_id']).execute();
  await db.schema.createIndex('ad_objects_account').on('ad_objects').column('account_id').execute();

  await db.schema
    .createTable('account_user_tokens')
    .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('token_enc', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('account_user_tokens').execute();
  await db.schema.dropTable('ad_objects').execute();
}
