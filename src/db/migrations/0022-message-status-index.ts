// Delivery and read receipts move every outbound message of a conversation up to a watermark
// from `sent` (or `delivered`) on: without this index that update read every message of the
// conversation (300 µs at 2,000 messages, and growing with it); with it, only the few that
// still carry the old status. Bound parameters rule out a partial index (the planner cannot
// see that the status asked for is the one indexed), so the status is a column of the key.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('messages_conversation_status').on('messages').columns(['conversation_id', 'direction', 'status', 'sent_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('messages_conversation_status').execute();
}
