// Reading an authorization request (GET /oauth/authorize, then the dashboard's consent page and
// its form, which carry the same parameters). The order matters: until the client and its
// redirect URI are known and match exactly, nothing may be sent to that URI, so those errors are
// shown to the person; every later error goes back to the client as `error=` on its redirect URI
// (RFC 6749 section 4.1.2.1), but only for a client a person has approved once. Registration
// needs no credential, so an unapproved client's redirect URI is anyone's: sending errors there
// made /oauth/authorize an open redirect (issue 29, point 9); they are shown on our page instead.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { findClient, type McpClient } from './clients.ts';
import { CHALLENGE_PATTERN } from './pkce.ts';
import { isOurResource, type OAuthUrls } from './urls.ts';

export interface AuthorizationRequest {
  client: McpClient;
  redirectUri: string;
  codeChallenge: string;
  state: string | null;
  scope: string | null;
  /** The resource the tokens are for: ours, whether or not the client named it. */
  resource: string;
}

export type ParsedAuthorization =
  | { kind: 'ok'; request: AuthorizationRequest }
  /** Shown to the person: the redirect URI cannot be trusted. */
  | { kind: 'page'; message: string }
  /** Sent back to the client on its redirect URI. */
  | { kind: 'redirect'; location: string };

/** The parameters every step carries along (query of the authorize URL, fields of the form). */
export const AUTHORIZE_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'state', 'scope', 'resource'] as const;

type Params = ReadonlyMap<string, string | string[]>;

const MAX_PARAM = 2_000;

/** Appends the answer to a redirect URI (which may have a query of its own), with the issuer (RFC 9207). */
export function redirectWith(redirectUri: string, issuer: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  url.searchParams.set('iss', issuer);
  return url.href;
}

export async function parseAuthorization(db: Kysely<Database>, urls: OAuthUrls, params: Params, now: number): Promise<ParsedAuthorization> {
  const single = (name: string): { value: string | null; repeated: boolean } => {
    const value = params.get(name);
    if (Array.isArray(value)) return { value: null, repeated: true };
    return { value: value === undefined || value === '' ? null : value, repeated: false };
  };
  const clientId = single('client_id');
  if (clientId.repeated || clientId.value === null) return { kind: 'page', message: 'The request does not name its client (client_id).' };
  const client = await findClient(db, clientId.value, now);
  if (!client) return { kind: 'page', message: 'The application asking for access is not registered here (unknown client_id). It may have been removed; let it register again.' };
  const redirect = single('redirect_uri');
  if (redirect.repeated) return { kind: 'page', message: 'redirect_uri is given more than once.' };
  // Optional only when the client registered exactly one (RFC 6749 section 3.1.2.3).
  const redirectUri = redirect.value ?? (client.redirectUris.length === 1 ? (client.redirectUris[0] ?? null) : null);
  if (redirectUri === null) return { kind: 'page', message: 'The request does not say where to return (redirect_uri), and the application registered several addresses.' };
  if (!client.redirectUris.includes(redirectUri)) return { kind: 'page', message: 'The address to return to (redirect_uri) is not one the application registered, so this request is refused.' };

  const stateParam = single('state');
  const state = stateParam.repeated ? null : stateParam.value;
  const fail = (error: string, description: string): ParsedAuthorization =>
    client.approved
      ? { kind: 'redirect', location: redirectWith(redirectUri, urls.issuer, { error, error_description: description, state }) }
      : { kind: 'page', message: `The request is refused (${error}: ${description}).` };

  for (const name of AUTHORIZE_PARAMS) {
    const { value, repeated } = single(name);
    if (repeated) return fail('invalid_request', `${name}: given more than once`);
    if (value !== null && value.length > MAX_PARAM) return fail('invalid_request', `${name}: at most ${MAX_PARAM} characters`);
  }
  const responseType = single('response_type').value;
  if (responseType === null) return fail('invalid_request', 'response_type: required ("code")');
  if (responseType !== 'code') return fail('unsupported_response_type', 'response_type: only "code" is supported');
  const challenge = single('code_challenge').value;
  if (challenge === null) return fail('invalid_request', 'code_challenge: required (PKCE with S256)');
  const method = single('code_challenge_method').value;
  if (method !== 'S256') return fail('invalid_request', `code_challenge_method: must be S256${method === null ? ' (it defaults to plain, which is not accepted)' : ''}`);
  if (!CHALLENGE_PATTERN.test(challenge)) return fail('invalid_request', 'code_challenge: must be the 43-character base64url SHA-256 of the verifier');
  const resource = single('resource').value;
  if (resource !== null && !isOurResource(urls, resource)) return fail('invalid_target', `resource: this server grants access to ${urls.resource} only`);
  return { kind: 'ok', request: { client, redirectUri, codeChallenge: challenge, state, scope: single('scope').value, resource: urls.resource } };
}

/** A parsed query or form as the parser above reads it. */
export function paramsOf(source: unknown): Params {
  const params = new Map<string, string | string[]>();
  if (typeof source !== 'object' || source === null) return params;
  for (const [name, value] of Object.entries(source)) {
    if (typeof value === 'string') params.set(name, value);
    else if (Array.isArray(value)) params.set(name, value.filter((v): v is string => typeof v === 'string'));
  }
  return params;
}
