// The connections of an organization as the rest of the service sees them: listed and revoked in
// the dashboard, and looked up behind every access token that reaches /mcp or a tool's route.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { revokeGrantIn } from './grants.ts';
import { ACCESS_PREFIX, hashSecret, hasShape } from './secrets.ts';

/** Revokes one of the organization's connections (the dashboard's Revoke); false if there is no such live one. */
export async function revokeGrant(db: Kysely<Database>, now: number, organizationId: string, grantId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const own = await trx.selectFrom('mcp_grants').select('id').where('id', '=', grantId).where('organization_id', '=', organizationId).where('revoked_at', 'is', null).executeTakeFirst();
    return own ? revokeGrantIn(trx, now, grantId) : false;
  });
}

export interface ConnectedClient {
  grantId: string;
  clientId: string;
  clientName: string | null;
  redirectUris: string[];
  approvedBy: string | null;
  connectedAt: number;
  lastUsedAt: number | null;
}

/** The organization's live connections, newest first. */
export async function listConnections(db: Kysely<Database>, organizationId: string): Promise<ConnectedClient[]> {
  const rows = await db
    .selectFrom('mcp_grants')
    .innerJoin('mcp_clients', 'mcp_clients.id', 'mcp_grants.client_id')
    .select(['mcp_grants.id', 'mcp_grants.client_id', 'mcp_clients.client_name', 'mcp_clients.redirect_uris', 'mcp_grants.approved_by', 'mcp_grants.created_at', 'mcp_grants.last_used_at'])
    .where('mcp_grants.organization_id', '=', organizationId)
    .where('mcp_grants.revoked_at', 'is', null)
    .orderBy('mcp_grants.id', 'desc')
    .execute();
  return rows.map((r) => ({ grantId: r.id, clientId: r.client_id, clientName: r.client_name, redirectUris: JSON.parse(r.redirect_uris) as string[], approvedBy: r.approved_by, connectedAt: r.created_at, lastUsedAt: r.last_used_at }));
}

export interface TokenHolder {
  grantId: string;
  organizationId: string;
  /** The organization's approval setting: the connection holds posts when it does. */
  approvalRequired: boolean;
}

const LAST_USED_EVERY_MS = 60_000;

/** The live grant behind an access token, or null (malformed, unknown, expired or revoked). */
export async function verifyAccessToken(db: Kysely<Database>, now: number, token: string): Promise<TokenHolder | null> {
  if (!hasShape(ACCESS_PREFIX, token)) return null;
  const row = await db
    .selectFrom('mcp_tokens')
    .innerJoin('mcp_grants', 'mcp_grants.id', 'mcp_tokens.grant_id')
    .innerJoin('organizations', 'organizations.id', 'mcp_grants.organization_id')
    .select(['mcp_grants.id as grantId', 'mcp_grants.organization_id as organizationId', 'mcp_grants.last_used_at as lastUsedAt', 'organizations.approval_required as approval'])
    .where('mcp_tokens.token_hash', '=', hashSecret(token))
    .where('mcp_tokens.kind', '=', 'access')
    .where('mcp_tokens.revoked_at', 'is', null)
    .where('mcp_tokens.expires_at', '>', now)
    .where('mcp_grants.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  // "Last used" for the dashboard, written at most once a minute per connection.
  if (row.lastUsedAt === null || row.lastUsedAt <= now - LAST_USED_EVERY_MS) {
    await db.updateTable('mcp_grants').set({ last_used_at: now }).where('id', '=', row.grantId).execute();
  }
  return { grantId: row.grantId, organizationId: row.organizationId, approvalRequired: row.approval === 1 };
}
