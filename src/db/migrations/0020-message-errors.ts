// Why a message failed (a WhatsApp `failed` status carries the Cloud API's errors): kept on the
// message so the stored record says what the message.status event said. Null otherwise.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('error', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').dropColumn('error').execute();
}
