// Insights snapshots of published targets (analytics, issue 17): one row per target and stage
// (`1h`, `24h`, `7d` after publishing, taken by the analytics.snapshot sweep; `refresh`, the
// last read with refresh=1). `latest` marks each target's newest row, which post analytics answer
// from and best time reads its engagement from.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('analytics_snapshots')
    .addColumn('target_id', 'text', (c) => c.notNull().references('post_targets.id').onDelete('cascade'))
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
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
  // The newest row of a target: post analytics and best time join on it.
  await db.schema.createIndex('analytics_snapshots_latest').on('analytics_snapshots').column('target_id').where(sql.ref('latest'), '=', 1).execute();
  // The sweep's due query walks published targets by publishing time; best time walks one account's.
  await db.schema.createIndex('post_targets_published_at').on('post_targets').column('published_at').where(sql.ref('status'), '=', 'published').execute();
  await db.schema.createIndex('post_targets_account_published').on('post_targets').columns(['account_id', 'published_at']).where(sql.ref('status'), '=', 'published').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['post_targets_account_published', 'post_targets_published_at']) await db.schema.dropIndex(name).execute();
  await db.schema.dropTable('analytics_snapshots').execute();
}
