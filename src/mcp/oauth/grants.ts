// Approvals, codes and tokens. An approval in the dashboard stores a single-use code (60 s)
// bound to the client, its redirect URI, the PKCE challenge, the organization and the resource.
// Exchanging it makes the grant (the connection the dashboard lists) with an access token (1 h)
// and a refresh token (30 days, rotated on every use). Every step is one transaction with a
// conditional update, so two concurrent exchanges of one code, or refreshes of one token, let
// exactly one through. A code or refresh token presented again after use is treated as stolen
// (OAuth 2.1, section 4.1.3 and 4.3.1): the grant it made is revoked with all its tokens.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';
import { verifierMatches } from './pkce.ts';
import { ACCESS_PREFIX, CODE_PREFIX, hashSecret, hasShape, newSecret, REFRESH_PREFIX } from './secrets.ts';

export const CODE_TTL_MS = 60_000;
export const ACCESS_TTL_MS = 3_600_000;
export const REFRESH_TTL_MS = 30 * 24 * 3_600_000;
/** The one scope: the connection acts for the whole organization, as its API keys do. */
export const SCOPE = 'mcp';
const SWEEP_AFTER_MS = 24 * 3_600_000;

export interface Approval {
  clientId: string;
  organizationId: string;
  approvedBy: string | null;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
}

export interface IssuedTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** Why a grant request was refused: the text is the error_description. */
export type GrantRefusal = { ok: false; description: string };
export type GrantResult = { ok: true; tokens: IssuedTokens } | GrantRefusal;

const refused = (description: string): GrantRefusal => ({ ok: false, description });

/** Stores an approval's code and returns it (shown only in the redirect to the client). */
export async function issueCode(db: Kysely<Database>, now: number, approval: Approval): Promise<string> {
  const code = newSecret(CODE_PREFIX);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('mcp_codes').where('expires_at', '<', now - SWEEP_AFTER_MS).execute();
    await trx
      .insertInto('mcp_codes')
      .values({
        code_hash: hashSecret(code),
        client_id: approval.clientId,
        organization_id: approval.organizationId,
        approved_by: approval.approvedBy,
        redirect_uri: approval.redirectUri,
        code_challenge: approval.codeChallenge,
        resource: approval.resource,
        scope: SCOPE,
        created_at: now,
        expires_at: now + CODE_TTL_MS,
        used_at: null,
        grant_id: null,
      })
      .execute();
  });
  return code;
}

async function issueTokens(trx: Kysely<Database>, now: number, grantId: string): Promise<IssuedTokens> {
  const access = newSecret(ACCESS_PREFIX);
  const refresh = newSecret(REFRESH_PREFIX);
  await trx
    .insertInto('mcp_tokens')
    .values([
      { token_hash: hashSecret(access), grant_id: grantId, kind: 'access', created_at: now, expires_at: now + ACCESS_TTL_MS, revoked_at: null },
      { token_hash: hashSecret(refresh), grant_id: grantId, kind: 'refresh', created_at: now, expires_at: now + REFRESH_TTL_MS, revoked_at: null },
    ])
    .execute();
  // Tokens expired (or spent, or revoked: those expire at once) over a day ago are useless;
  // dropping them here keeps the table small without a job.
  await trx.deleteFrom('mcp_tokens').where('expires_at', '<', now - SWEEP_AFTER_MS).execute();
  return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TTL_MS / 1000, refresh_token: refresh, scope: SCOPE };
}

/** Ends a grant and every token it issued (inside the caller's transaction). */
export async function revokeGrantIn(trx: Kysely<Database>, now: number, grantId: string): Promise<boolean> {
  const result = await trx.updateTable('mcp_grants').set({ revoked_at: now }).where('id', '=', grantId).where('revoked_at', 'is', null).executeTakeFirst();
  await trx.updateTable('mcp_tokens').set({ revoked_at: now, expires_at: now }).where('grant_id', '=', grantId).where('revoked_at', 'is', null).execute();
  return result.numUpdatedRows > 0n;
}

export interface CodeExchange {
  code: string;
  clientId: string;
  redirectUri: string;
  codeVerifier: string;
}

export async function exchangeCode(db: Kysely<Database>, now: number, exchange: CodeExchange): Promise<GrantResult> {
  if (!hasShape(CODE_PREFIX, exchange.code)) return refused('code: unknown authorization code');
  const codeHash = hashSecret(exchange.code);
  return db.transaction().execute(async (trx): Promise<GrantResult> => {
    const code = await trx.selectFrom('mcp_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
    if (!code) return refused('code: unknown authorization code');
    if (code.used_at !== null) {
      if (code.grant_id !== null) await revokeGrantIn(trx, now, code.grant_id);
      return refused('code: already used; the tokens issued from it are revoked');
    }
    if (code.expires_at <= now) return refused('code: expired; codes are valid 60 seconds');
    if (code.client_id !== exchange.clientId) return refused('code: issued to another client');
    if (code.redirect_uri !== exchange.redirectUri) return refused('redirect_uri: does not match the authorization request');
    if (!verifierMatches(exchange.codeVerifier, code.code_challenge)) return refused('code_verifier: does not match the code_challenge');
    const grantId = newId('mcpGrant', now);
    const spent = await trx.updateTable('mcp_codes').set({ used_at: now, grant_id: grantId }).where('code_hash', '=', codeHash).where('used_at', 'is', null).executeTakeFirst();
    if (spent.numUpdatedRows === 0n) {
      // A concurrent exchange won (PostgreSQL let both read the unused row): a second use all the
      // same, so its grant goes, as on SQLite where the second one reads the spent row.
      const winner = await trx.selectFrom('mcp_codes').select('grant_id').where('code_hash', '=', codeHash).executeTakeFirst();
      if (winner?.grant_id) await revokeGrantIn(trx, now, winner.grant_id);
      return refused('code: already used; the tokens issued from it are revoked');
    }
    await trx
      .insertInto('mcp_grants')
      .values({ id: grantId, organization_id: code.organization_id, client_id: code.client_id, approved_by: code.approved_by, resource: code.resource, scope: code.scope, created_at: now, last_used_at: null, revoked_at: null })
      .execute();
    await trx.updateTable('mcp_clients').set({ approved_at: now }).where('id', '=', code.client_id).where('approved_at', 'is', null).execute();
    return { ok: true, tokens: await issueTokens(trx, now, grantId) };
  });
}

export async function refreshGrant(db: Kysely<Database>, now: number, refreshToken: string, clientId: string): Promise<GrantResult> {
  if (!hasShape(REFRESH_PREFIX, refreshToken)) return refused('refresh_token: unknown refresh token');
  const tokenHash = hashSecret(refreshToken);
  return db.transaction().execute(async (trx): Promise<GrantResult> => {
    const row = await trx
      .selectFrom('mcp_tokens')
      .innerJoin('mcp_grants', 'mcp_grants.id', 'mcp_tokens.grant_id')
      .select(['mcp_tokens.grant_id as grantId', 'mcp_tokens.expires_at as expiresAt', 'mcp_tokens.revoked_at as tokenRevokedAt', 'mcp_grants.revoked_at as grantRevokedAt', 'mcp_grants.client_id as clientId'])
      .where('mcp_tokens.token_hash', '=', tokenHash)
      .where('mcp_tokens.kind', '=', 'refresh')
      .executeTakeFirst();
    if (!row || row.clientId !== clientId) return refused('refresh_token: unknown refresh token');
    if (row.grantRevokedAt !== null) return refused('refresh_token: the connection was revoked');
    if (row.tokenRevokedAt !== null) {
      await revokeGrantIn(trx, now, row.grantId);
      return refused('refresh_token: already used; the connection is revoked');
    }
    if (row.expiresAt <= now) return refused('refresh_token: expired');
    // Kept a day after it is spent, so that a replay within that day is recognised as one.
    const spent = await trx.updateTable('mcp_tokens').set({ revoked_at: now, expires_at: now }).where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).executeTakeFirst();
    if (spent.numUpdatedRows === 0n) {
      // A concurrent refresh spent it first: a replay like any other.
      await revokeGrantIn(trx, now, row.grantId);
      return refused('refresh_token: already used; the connection is revoked');
    }
    return { ok: true, tokens: await issueTokens(trx, now, row.grantId) };
  });
}

/**
 * RFC 7009: revokes a token of this client. A refresh token ends its whole connection (section
 * 2.1 suggests the access tokens of its grant go too); an access token ends only itself. An
 * unknown token, or another client's, changes nothing and is not reported (section 2.2).
 */
export async function revokeToken(db: Kysely<Database>, now: number, token: string, clientId: string | null): Promise<void> {
  const kind = hasShape(ACCESS_PREFIX, token) ? 'access' : hasShape(REFRESH_PREFIX, token) ? 'refresh' : null;
  if (!kind) return;
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('mcp_tokens')
      .innerJoin('mcp_grants', 'mcp_grants.id', 'mcp_tokens.grant_id')
      .select(['mcp_tokens.grant_id as grantId', 'mcp_grants.client_id as clientId'])
      .where('mcp_tokens.token_hash', '=', hashSecret(token))
      .where('mcp_tokens.kind', '=', kind)
      .executeTakeFirst();
    if (!row || (clientId !== null && row.clientId !== clientId)) return;
    if (kind === 'refresh') await revokeGrantIn(trx, now, row.grantId);
    else await trx.updateTable('mcp_tokens').set({ revoked_at: now, expires_at: now }).where('token_hash', '=', hashSecret(token)).where('revoked_at', 'is', null).execute();
  });
}
