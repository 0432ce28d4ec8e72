// Each job carries the worker lane it runs in, so a lane claims its own due jobs through one
// index range (lane, run_at) instead of filtering kinds over every due job of every lane.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('lane', 'text', (c) => c.notNull().defaultTo('default')).execute();
  await db.schema
    .createIndex('jobs_due_lane')
    .on('jobs')
    .columns(['lane', 'run_at'])
    .where(sql.ref('status'), '=', 'pending')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('jobs_due_lane').execute();
  await db.schema.alterTable('jobs').dropColumn('lane').execute();
}
