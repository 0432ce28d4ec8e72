// Insights snapshots of published targets (analytics, issue 17): one row per target and stage
// (`1h`, `24h`, `7d` after publishing, taken by the analytics.snapshot sweep; `refresh`, the
// last read with refresh=1). `latest` marks each target's newest row, which post analytics answer
// from and best time reads its engagement from. The target's publishing time is kept on the row,
// so best time sums engagement per slot from one covering index, without a lookup per target.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('analytics_snapshots')
    .addColumn('target_id', 'text', (c) => c.notNull().references('post_targets.id').onDelete('cascade'))
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('published_at', 'bigint', (c) => c.notNull())
    .addColumn('taken_at', 'bigint', (c) => c.notNull())
    // JSON: {metric: value} of what was read; the metrics the platform lacks; per-metric or whole-call errors.
    .addColumn('metrics', 'text', (c) => c.notNull())
    .addColumn('unsupported', 'text', (c) => c.notNull())
    .addColumn('errors', 'text', (c) => c.notNull())
    // The sum of the engagement metrics read (likes, comments, shares, saves, replies, reposts, quotes).
    .addColumn('engagement', 'bigint', (c) => c.notNull())
    .addColumn('latest', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_snapshots_pk', ['target_id', 'stage'])
    .execute();
  // Best time: the newest rows of one account by publishing time, with their engagement (covering).
  await db.schema.createIndex('analytics_snapshots_slots').on('analytics_snapshots').columns(['account_id', 'published_at', 'engagement']).where(sql.ref('latest'), '=', 1).execute();
  // The sweep's due query walks published targets by publishing time; best time counts one
  // account's per slot (covering).
  await db.schema.createIndex('post_targets_published_at').on('post_targets').column('published_at').where(sql.ref('status'), '=', 'published').execute();
  await db.schema.createIndex('post_targets_account_published').on('post_targets').columns(['account_id', 'published_at']).where(sql.ref('status'), '=', 'published').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['post_targets_account_published', 'post_targets_published_at']) await db.schema.dropIndex(name).execute();
  await db.schema.dropTable('analytics_snapshots').execute();
}
