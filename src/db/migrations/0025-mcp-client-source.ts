// Unapproved MCP client registrations are capped per source address (issue 29, point 9), so
// one address filling its share cannot block registrations from anyone else: each registration
// keeps the address it came from, and the cap counts that address's unapproved ones.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mcp_clients').addColumn('registered_from', 'text').execute();
  await db.schema.createIndex('mcp_clients_unapproved_source').on('mcp_clients').columns(['registered_from', 'approved_at', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('mcp_clients_unapproved_source').execute();
  await db.schema.alterTable('mcp_clients').dropColumn('registered_from').execute();
}
