// The inbox polls the comments of every platform that sends no comment webhooks (a definition's
// `pollComments`: reddit, x, linkedin), not reddit's alone, and the list comes from the registry,
// not from a migration. So the partial index keeps only the published condition and leads with
// the platform: the due-query names the polled platforms as literals and reads, for each, the
// range of the last 7 days. The job is renamed too: queued runs of the old name are dropped, as
// every worker start queues the next tick of the new one.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('post_targets_reddit_comment_poll').execute();
  await db.schema
    .createIndex('post_targets_comment_poll')
    .on('post_targets')
    .columns(['platform', 'published_at', 'comment_poll_at'])
    .where(sql<boolean>`${sql.ref('status')} = 'published'`)
    .execute();
  await sql`delete from jobs where kind = 'inbox.reddit_poll' and status in ('pending', 'running')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('post_targets_comment_poll').execute();
  await db.schema
    .createIndex('post_targets_reddit_comment_poll')
    .on('post_targets')
    .columns(['published_at', 'comment_poll_at'])
    .where(sql<boolean>`${sql.ref('platform')} = 'reddit' and ${sql.ref('status')} = 'published'`)
    .execute();
}
