// Dynamic client registration (RFC 7591): any MCP client may register itself, because the
// person who approves it in the dashboard is the real gate. What it registers is checked here:
// redirect URIs must be https, or http on a loopback host (a desktop client's local listener),
// and carry no fragment; they are matched exactly at /oauth/authorize. Clients are public (PKCE,
// no secret), so every registration answers token_endpoint_auth_method "none".
//
// Registration needs no credential, so it is capped without letting anyone block everyone else
// (issue 29, point 9): a registration nobody approved within an hour is gone (refused at once,
// deleted at the next registration), and at most MAX_PENDING_PER_SOURCE unapproved ones exist
// per source address (an IPv6 address counts as its /64, which one host usually holds whole);
// per-address pacing is in the route. Until a person approves a client once, nothing of the
// authorization flow redirects to it (authorization-request.ts).
import type { Kysely } from 'kysely';
import { CustomOAuthError, InvalidClientMetadataError, TooManyRequestsError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { OAuthClientMetadataSchema, type OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Database, McpClientsTable } from '../../db/schema.ts';
import { newId } from '../../lib/ids.ts';

export const PENDING_TTL_MS = 3_600_000;
export const MAX_PENDING_PER_SOURCE = 20;
const MAX_REDIRECT_URIS = 10;
const MAX_NAME = 200;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const GRANT_TYPES = ['authorization_code', 'refresh_token'];

export interface McpClient {
  id: string;
  name: string | null;
  redirectUris: string[];
  /** Whether a person has approved it once (a code of it was exchanged). */
  approved: boolean;
}

/** The address a registration counts against: IPv4 as it is, IPv6 as its /64. */
export function registrationSource(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = ip.includes('::') ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

function invalidRedirect(message: string): CustomOAuthError {
  return new CustomOAuthError('invalid_redirect_uri', message);
}

function checkRedirectUri(value: string, index: number): string {
  const field = `redirect_uris[${index}]`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidRedirect(`${field}: not a URL`);
  }
  if (url.hash !== '' || value.includes('#')) throw invalidRedirect(`${field}: must not contain a fragment`);
  if (url.username || url.password) throw invalidRedirect(`${field}: must not contain credentials`);
  if (url.protocol === 'https:') return value;
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return value;
  throw invalidRedirect(`${field}: must be https, or http on a loopback host (localhost, 127.0.0.1, [::1])`);
}

/** The registration as it will be stored and answered; throws an OAuthError for bad metadata. */
export function parseRegistration(body: unknown): Omit<OAuthClientInformationFull, 'client_id' | 'client_id_issued_at'> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidClientMetadataError('the body must be a JSON object of client metadata');
  const parsed = OAuthClientMetadataSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.map(String).join('.') || 'body';
    if (field.startsWith('redirect_uris')) throw invalidRedirect(`${field}: ${issue?.message ?? 'invalid'}`);
    throw new InvalidClientMetadataError(`${field}: ${issue?.message ?? 'invalid'}`);
  }
  const metadata = parsed.data;
  if (metadata.redirect_uris.length === 0) throw invalidRedirect('redirect_uris: at least one is required');
  if (metadata.redirect_uris.length > MAX_REDIRECT_URIS) throw invalidRedirect(`redirect_uris: at most ${MAX_REDIRECT_URIS}`);
  const redirectUris = metadata.redirect_uris.map(checkRedirectUri);
  if (metadata.client_name !== undefined && (metadata.client_name.trim() === '' || metadata.client_name.length > MAX_NAME)) {
    throw new InvalidClientMetadataError(`client_name: 1 to ${MAX_NAME} characters`);
  }
  const unsupportedGrant = metadata.grant_types?.find((g) => !GRANT_TYPES.includes(g));
  if (unsupportedGrant !== undefined) throw new InvalidClientMetadataError(`grant_types: ${unsupportedGrant} is not supported (only ${GRANT_TYPES.join(', ')})`);
  if (metadata.response_types?.some((r) => r !== 'code')) throw new InvalidClientMetadataError('response_types: only "code" is supported');
  // Signed statements and key sets are for confidential clients; we issue no secrets.
  const kept: Partial<typeof metadata> = { ...metadata };
  delete kept.jwks;
  delete kept.jwks_uri;
  delete kept.software_statement;
  return { ...kept, redirect_uris: redirectUris, grant_types: GRANT_TYPES, response_types: ['code'], token_endpoint_auth_method: 'none' };
}

/** Stores a registration, after sweeping stale ones; refuses when too many of `source`'s wait for approval. */
export async function registerClient(db: Kysely<Database>, now: number, metadata: ReturnType<typeof parseRegistration>, source: string): Promise<OAuthClientInformationFull> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom('mcp_clients').where('approved_at', 'is', null).where('created_at', '<', now - PENDING_TTL_MS).execute();
    const pending = await trx
      .selectFrom('mcp_clients')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('registered_from', '=', source)
      .where('approved_at', 'is', null)
      .executeTakeFirst();
    if (Number(pending?.n ?? 0) >= MAX_PENDING_PER_SOURCE) {
      throw new TooManyRequestsError(`${MAX_PENDING_PER_SOURCE} client registrations from this address wait for approval; approve one, or try again within the hour`);
    }
    const id = newId('mcpClient', now);
    const answer: OAuthClientInformationFull = { ...metadata, client_id: id, client_id_issued_at: Math.floor(now / 1000) };
    const row: McpClientsTable = { id, client_name: metadata.client_name ?? null, redirect_uris: JSON.stringify(metadata.redirect_uris), metadata: JSON.stringify(answer), created_at: now, approved_at: null, registered_from: source };
    await trx.insertInto('mcp_clients').values(row).execute();
    return answer;
  });
}

/** The client, unless unknown or an unapproved registration past its hour. */
export async function findClient(db: Kysely<Database>, clientId: string, now: number): Promise<McpClient | null> {
  if (!/^mcpc_[0-9a-z]{26}$/.test(clientId)) return null;
  const row = await db.selectFrom('mcp_clients').select(['id', 'client_name', 'redirect_uris', 'created_at', 'approved_at']).where('id', '=', clientId).executeTakeFirst();
  if (!row || (row.approved_at === null && row.created_at < now - PENDING_TTL_MS)) return null;
  return { id: row.id, name: row.client_name, redirectUris: JSON.parse(row.redirect_uris) as string[], approved: row.approved_at !== null };
}
