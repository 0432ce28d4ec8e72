// A connect page the service hosts (Bluesky's app-password sign-in) lets the person try again
// after a wrong password; the state row counts the wrong tries, so a fifth spends it.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('connect_states').addColumn('failed_tries', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('connect_states').dropColumn('failed_tries').execute();
}
