// Endpoints changed in place (issue 29): an endpoint can be switched off, and a rotated secret
// keeps the one it replaced, sealed like the current one, until its 24 hours of grace end, so
// deliveries meanwhile carry a signature with each.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('previous_secret_enc', 'text').execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('previous_secret_expires_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['previous_secret_expires_at', 'previous_secret_enc', 'enabled']) {
    await db.schema.alterTable('webhook_endpoints').dropColumn(column).execute();
  }
}
