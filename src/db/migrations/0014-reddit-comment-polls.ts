// reddit sends no comment webhooks, so the inbox polls the comments of published reddit targets
// for 7 days (src/modules/inbox/reddit-poll-job.ts). Each target keeps when it is next due
// (null: not polled yet). The partial index holds reddit's published targets only, ordered by
// publication: the poll reads the range of the last 7 days from it, and both columns it filters
// on are in it, so a due-query neither reads the table nor sees older posts, and a post leaving
// the window needs no cleanup.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('post_targets').addColumn('comment_poll_at', 'bigint').execute();
  await db.schema
    .createIndex('post_targets_reddit_comment_poll')
    .on('post_targets')
    .columns(['published_at', 'comment_poll_at'])
    .where(sql<boolean>`${sql.ref('platform')} = 'reddit' and ${sql.ref('status')} = 'published'`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('post_targets_reddit_comment_poll').execute();
  await db.schema.alterTable('post_targets').dropColumn('comment_poll_at').execute();
}
