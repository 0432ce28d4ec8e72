// Counters shared by every node (platforms/counters.ts): YouTube's daily quota is the API
// project's, so the units and uploads are counted in the store, not per process. A row per
// counter and window; rows past their window are dropped when a new window starts.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('shared_counters')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('used', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('shared_counters').execute();
}
