// Posts, their targets (one per account, in the order of the request's `platforms`), and the
// idempotency keys of POST /posts.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('posts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('scheduled_for', 'bigint')
    .addColumn('approved_at', 'bigint')
    .addColumn('rejected_reason', 'text')
    .addColumn('api_key_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // GET /posts: the newest 100 of an organization, optionally of one status.
  await db.schema.createIndex('posts_org').on('posts').columns(['organization_id', 'id']).execute();
  await db.schema.createIndex('posts_org_status').on('posts').columns(['organization_id', 'status', 'id']).execute();

  await db.schema
    .createTable('post_targets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('post_id', 'text', (c) => c.notNull().references('posts.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('input', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('warnings', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('released_next', 'smallint', (c) => c.notNull().defaultTo(0))
    .addColumn('progress', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('platform_post_id', 'text')
    .addColumn('url', 'text')
    .addColumn('error', 'text')
    .addColumn('published_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('post_targets_post').on('post_targets').columns(['post_id', 'position']).unique().execute();

  await db.schema
    .createTable('post_requests')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('body_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('post_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('post_requests_pk', ['organization_id', 'key'])
    .execute();
  await db.schema.createIndex('post_requests_created').on('post_requests').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['post_requests', 'post_targets', 'posts']) await db.schema.dropTable(table).execute();
}
