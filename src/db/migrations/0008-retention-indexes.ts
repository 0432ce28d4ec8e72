// Indexes for the daily store.retention sweep, so each of its deletes reads only the old settled
// rows it removes instead of a whole table. The partial ones hold settled rows only; the sweep
// names the same status literals so both planners can use them.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('jobs_failed').on('jobs').column('updated_at').where(sql.ref('status'), '=', 'failed').execute();
  await db.schema
    .createIndex('webhook_deliveries_settled')
    .on('webhook_deliveries')
    .column('updated_at')
    .where(sql<boolean>`${sql.ref('status')} in ('delivered', 'failed')`)
    .execute();
  // "Does any delivery still reference this event?", and the foreign key's own check when an
  // event is deleted: without it both read every delivery.
  await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').column('event_id').execute();
  await db.schema.createIndex('events_created').on('events').column('created_at').execute();
  await db.schema
    .createIndex('platform_webhook_events_processed')
    .on('platform_webhook_events')
    .column('processed_at')
    .where(sql.ref('status'), '=', 'processed')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['platform_webhook_events_processed', 'events_created', 'webhook_deliveries_event', 'webhook_deliveries_settled', 'jobs_failed']) {
    await db.schema.dropIndex(name).execute();
  }
}
