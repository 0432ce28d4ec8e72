// X OAuth 2.0 (platforms/x.md §2): the consent page at x.com/i/oauth2/authorize (state and a PKCE
// challenge required, S256 or plain), the token endpoint at api.x.com/2/oauth2/token with HTTP
// Basic client auth (a confidential client), codes valid 30 seconds and single use, the verifier
// checked at the exchange, refresh tokens only with offline.access and rotating at every refresh
// (the used one stops working; x.md leaves rotation unconfirmed, DESIGN treats it as rotating).
import { createHash } from 'node:crypto';
import type { AppRecord, TokenRecord } from '../core/model.ts';
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { isHttpUrl, redirectTo, sendErrorPage, type ConsentFlow } from '../oauth/consent.ts';
import { parseScopes } from '../oauth/scopes.ts';
import { oauthError } from './errors.ts';
import { basicCredentials, formFields } from '../oauth/token-request.ts';

export const X_SCOPES = new Set([
  'tweet.read', 'tweet.write', 'tweet.moderate.write', 'users.read', 'follows.read', 'follows.write', 'offline.access', 'space.read', 'mute.read',
  'mute.write', 'like.read', 'like.write', 'list.read', 'list.write', 'block.read', 'block.write', 'bookmark.read', 'bookmark.write', 'media.write',
  'dm.read', 'dm.write',
]);

/** A plain challenge is kept with this prefix; an S256 one as it is. */
const PLAIN = 'plain:';

export const xConsent: ConsentFlow = {
  platform: 'x',
  title: 'X',
  scopesSelectable: false,
  subjects: (state) => [...state.people.xUsers.values()].map((u) => ({ id: u.id, label: `@${u.username}` })),
  parse(ctx) {
    const q = ctx.query;
    if (!q.client_id) return sendErrorPage(ctx, 'Something went wrong', 'You weren’t able to give access to the App. Go back and try logging in again.');
    const redirectUri = q.redirect_uri ?? '';
    const app = ctx.state.app('x', q.client_id);
    if (!isHttpUrl(redirectUri) || (app.redirectUris && !app.redirectUris.includes(redirectUri))) {
      return sendErrorPage(ctx, 'Something went wrong', 'The redirect_uri does not match a callback URL of the App.');
    }
    const fail = (error: string, description: string) => {
      void ctx.reply.redirect(redirectTo(redirectUri, { state: q.state ?? null, error, error_description: description }), 302);
      return null;
    };
    if (q.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code');
    if (!q.state || q.state.length > 500) return fail('invalid_request', 'state is required (at most 500 characters)');
    const method = q.code_challenge_method ?? 'plain';
    if (!q.code_challenge) return fail('invalid_request', 'code_challenge is required');
    if (method !== 'S256' && method !== 'plain') return fail('invalid_request', 'code_challenge_method must be S256 or plain');
    const scopes = parseScopes(q.scope);
    if (!scopes.length || scopes.some((s) => !X_SCOPES.has(s))) return fail('invalid_scope', 'unknown scope');
    const codeChallenge = method === 'plain' ? `${PLAIN}${q.code_challenge}` : q.code_challenge;
    return { platform: 'x', clientId: q.client_id, redirectUri, state: q.state, scopes, permanent: scopes.includes('offline.access'), codeChallenge };
  },
  allowRedirect: (request, code) => redirectTo(request.redirectUri, { state: request.state, code: code.code }),
  denyRedirect: (request) => redirectTo(request.redirectUri, { state: request.state, error: 'access_denied' }),
  codeTtlSeconds: (state) => state.settings.tokens.codeX,
  codeValue: (state) => state.ids.opaque('x-code', 86),
};

function verifierMatches(challenge: string, verifier: string): boolean {
  if (challenge.startsWith(PLAIN)) return challenge.slice(PLAIN.length) === verifier;
  return createHash('sha256').update(verifier).digest('base64url') === challenge;
}

/** HTTP Basic client authentication: a confidential client must use it. */
function basicClient(ctx: RouteContext): AppRecord {
  const { clientId, secret } = basicCredentials(ctx);
  const app = clientId ? ctx.state.findApp('x', clientId) : undefined;
  if (!app || !ctx.state.checkSecret(app, secret)) throw oauthError('invalid_client', 'Missing valid authorization header', 401);
  return app;
}

const form = formFields;

/** POST api.x.com/2/oauth2/token. */
export function xToken(ctx: RouteContext): unknown {
  const app = basicClient(ctx);
  const input = form(ctx);
  const state = ctx.state;
  if (input.grant_type === 'authorization_code') {
    const code = input.code ? state.codes.get(input.code) : undefined;
    const valid = code && code.platform === 'x' && code.clientId === app.clientId && !code.used && code.expiresAt > state.clock.now();
    if (!code || !valid) throw oauthError('invalid_request', 'Value passed for the authorization code was invalid.');
    if (code.redirectUri !== input.redirect_uri) throw oauthError('invalid_request', 'Value passed for the redirect uri did not match the uri of the authorization code.');
    if (!code.codeChallenge || !verifierMatches(code.codeChallenge, input.code_verifier ?? '')) throw oauthError('invalid_request', 'Value passed for the code verifier did not match the code challenge.');
    code.used = true;
    return issuePair(state, app.clientId, code.subjectId, code.scopes, code.permanent);
  }
  if (input.grant_type === 'refresh_token') {
    const refresh = input.refresh_token ? state.token(input.refresh_token) : undefined;
    if (!refresh || refresh.platform !== 'x' || refresh.type !== 'refresh' || refresh.clientId !== app.clientId || refresh.revoked || state.isExpired(refresh)) {
      throw oauthError('invalid_request', 'Value passed for the token was invalid.');
    }
    // Rotation: the refresh token used here stops working (the access token it came with runs out on its own).
    refresh.revoked = 'logout';
    return issuePair(state, app.clientId, refresh.subjectId, refresh.scopes, true);
  }
  throw oauthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
}

/** POST api.x.com/2/oauth2/revoke: the token (access or refresh) stops working. */
export function xRevoke(ctx: RouteContext): unknown {
  const app = basicClient(ctx);
  const token = ctx.state.token(form(ctx).token ?? '');
  if (token && token.platform === 'x' && token.clientId === app.clientId) {
    token.revoked = 'logout';
    if (token.pairedWith) {
      const paired = ctx.state.token(token.pairedWith);
      if (paired) paired.revoked = 'logout';
    }
  }
  return { revoked: true };
}

function issue(state: SandboxState, clientId: string, userId: string, scopes: string[], type: 'user' | 'refresh', pairedWith: string | null): TokenRecord {
  return state.issueToken({
    value: state.ids.opaque(`x-${type}`, 91),
    platform: 'x',
    type,
    clientId,
    subjectId: userId,
    userId,
    scopes,
    declined: [],
    pageIds: [],
    longLived: type === 'refresh',
    ttlSeconds: type === 'refresh' ? state.settings.tokens.xRefresh : state.settings.tokens.xAccess,
    pairedWith,
  });
}

function issuePair(state: SandboxState, clientId: string, userId: string, scopes: string[], withRefresh: boolean) {
  const refresh = withRefresh ? issue(state, clientId, userId, scopes, 'refresh', null) : null;
  const access = issue(state, clientId, userId, scopes, 'user', refresh?.value ?? null);
  if (refresh) refresh.pairedWith = access.value;
  const body: Record<string, unknown> = { token_type: 'bearer', expires_in: state.settings.tokens.xAccess, access_token: access.value, scope: scopes.join(' ') };
  if (refresh) body.refresh_token = refresh.value;
  return body;
}
