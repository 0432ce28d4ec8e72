// A mention poll reads on from where the last one stopped: the platform's mark of the newest
// mention read (x: its post id, for since_id; Bluesky: its notification's indexedAt), so that
// more mentions between two ticks than one page holds are all read.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mention_polls').addColumn('mark', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mention_polls').dropColumn('mark').execute();
}
