// Remote MCP clients (issue 20, point 3): OAuth clients registered by themselves (RFC 7591), the
// connections a person approved in the dashboard for one organization (grants), the single-use
// authorization codes and the access and refresh tokens of those grants. Codes and tokens are
// kept only as the SHA-256 of their secret; revoking a grant ends every token it issued.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mcp_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_name', 'text')
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('approved_at', 'bigint')
    .execute();
  // Registrations nobody approved are swept by age; this finds them.
  await db.schema.createIndex('mcp_clients_unapproved').on('mcp_clients').columns(['approved_at', 'created_at']).execute();

  await db.schema
    .createTable('mcp_grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull().references('mcp_clients.id').onDelete('cascade'))
    .addColumn('approved_by', 'text')
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('scope', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('mcp_grants_org').on('mcp_grants').columns(['organization_id', 'id']).execute();

  // A code carries everything the approval decided; the grant is made when it is exchanged, so a
  // connection exists only once the client really has tokens. grant_id lets a replayed code end it.
  await db.schema
    .createTable('mcp_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().references('mcp_clients.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('approved_by', 'text')
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('scope', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('grant_id', 'text')
    .execute();

  await db.schema
    .createTable('mcp_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('grant_id', 'text', (c) => c.notNull().references('mcp_grants.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('mcp_tokens_grant').on('mcp_tokens').columns(['grant_id']).execute();
  // Tokens are swept by age at every issuance.
  await db.schema.createIndex('mcp_tokens_expiry').on('mcp_tokens').columns(['expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mcp_tokens').execute();
  await db.schema.dropTable('mcp_codes').execute();
  await db.schema.dropTable('mcp_grants').execute();
  await db.schema.dropTable('mcp_clients').execute();
}
