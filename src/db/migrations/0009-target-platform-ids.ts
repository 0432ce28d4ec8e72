// Reconciling an interrupted publish asks whether a post found on the platform is already
// another target's (create-once.ts); the inbox will look targets up by platform post id too.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('post_targets_platform_post').on('post_targets').columns(['account_id', 'platform_post_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('post_targets_platform_post').execute();
}
