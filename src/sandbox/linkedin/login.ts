// LinkedIn OAuth 2.0 (linkedin.md §2): the consent page at www.linkedin.com/oauth/v2/authorization
// (space-separated scopes, each authorized for the app's products; a refusal redirects with
// `user_cancelled_authorize`), the token endpoint (form, client id and secret in the body) for
// the code and for refresh tokens, and token introspection. Refresh tokens are handed out only to
// apps approved for programmatic refresh (`settings.linkedin.refreshTokens`); they last 365 days
// from consent and are never extended: a refreshed access token lives at most as long as its
// refresh token.
import type { TokenRecord } from '../core/model.ts';
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { isHttpUrl, redirectTo, sendErrorPage, type ConsentFlow } from '../oauth/consent.ts';
import { parseScopes } from '../oauth/scopes.ts';
import { oauthError } from './errors.ts';
import { postingRole } from './people.ts';
import { formFields } from '../oauth/token-request.ts';

/** The scopes the sandbox app's products authorize (r_member_social is restricted: not among them). */
export const LINKEDIN_SCOPES = new Set([
  'openid', 'profile', 'email', 'w_member_social',
  'w_organization_social', 'r_organization_social', 'rw_organization_admin', 'r_organization_admin',
  'w_organization_social_feed', 'r_organization_social_feed', 'w_member_social_feed',
]);

export const linkedinConsent: ConsentFlow = {
  platform: 'linkedin',
  title: 'LinkedIn',
  scopesSelectable: false,
  // The page lists each member with the organizations they may post for.
  subjects: (state) =>
    [...state.people.linkedinMembers.values()].map((m) => {
      const organizations = [...state.people.linkedinOrganizations.values()].filter((o) => postingRole(o, m.id) !== null).map((o) => o.name);
      return { id: m.id, label: organizations.length ? `${m.name} (administers ${organizations.join(', ')})` : m.name };
    }),
  parse(ctx) {
    const q = ctx.query;
    if (!q.client_id) return sendErrorPage(ctx, 'Bad Request', 'client_id is required');
    const redirectUri = q.redirect_uri ?? '';
    if (!isHttpUrl(redirectUri)) return sendErrorPage(ctx, 'Bad Request', 'The redirect_uri does not match the registered value');
    const app = ctx.state.app('linkedin', q.client_id);
    if (app.redirectUris && !app.redirectUris.includes(redirectUri)) return sendErrorPage(ctx, 'Bad Request', 'The redirect_uri does not match the registered value');
    const fail = (error: string, description: string) => {
      void ctx.reply.redirect(redirectTo(redirectUri, { error, error_description: description, state: q.state ?? null }), 302);
      return null;
    };
    if (q.response_type !== 'code') return fail('invalid_request', 'response_type must be code');
    const scopes = parseScopes(q.scope);
    const unauthorized = scopes.find((s) => !LINKEDIN_SCOPES.has(s));
    if (!scopes.length) return fail('invalid_scope', 'scope is required');
    if (unauthorized) return fail('unauthorized_scope_error', `Scope "${unauthorized}" is not authorized for your application`);
    return { platform: 'linkedin', clientId: q.client_id, redirectUri, state: q.state ?? null, scopes, permanent: false, codeChallenge: null };
  },
  allowRedirect: (request, code) => redirectTo(request.redirectUri, { code: code.code, state: request.state }),
  denyRedirect: (request) => redirectTo(request.redirectUri, { error: 'user_cancelled_authorize', error_description: 'The user cancelled the authorization', state: request.state }),
  codeTtlSeconds: (state) => state.settings.tokens.codeLinkedin,
};

function client(ctx: RouteContext, input: Record<string, string>) {
  const app = input.client_id ? ctx.state.findApp('linkedin', input.client_id) : undefined;
  if (!app || !ctx.state.checkSecret(app, input.client_secret ?? '')) throw oauthError(401, 'invalid_client', 'Client authentication failed');
  return app;
}

/** POST www.linkedin.com/oauth/v2/accessToken. */
export function linkedinAccessToken(ctx: RouteContext): unknown {
  const input = formFields(ctx);
  const state = ctx.state;
  if (input.grant_type === 'authorization_code') {
    const app = client(ctx, input);
    const code = input.code ? state.codes.get(input.code) : undefined;
    const valid = code && code.platform === 'linkedin' && code.clientId === app.clientId && !code.used && code.expiresAt > state.clock.now();
    if (!code || !valid) throw oauthError(400, 'invalid_request', 'The provided authorization grant is invalid, expired, revoked, or was issued to another client');
    if (code.redirectUri !== input.redirect_uri) throw oauthError(400, 'invalid_redirect_uri', 'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code');
    code.used = true;
    const refresh = state.settings.linkedin.refreshTokens ? issue(state, app.clientId, code.subjectId, code.scopes, 'refresh', null, state.settings.tokens.linkedinRefresh) : null;
    const access = issue(state, app.clientId, code.subjectId, code.scopes, 'user', refresh?.value ?? null, state.settings.tokens.linkedinAccess);
    return answer(state, access, refresh);
  }
  if (input.grant_type === 'refresh_token') {
    const app = client(ctx, input);
    const refresh = input.refresh_token ? state.token(input.refresh_token) : undefined;
    if (!refresh || refresh.platform !== 'linkedin' || refresh.type !== 'refresh' || refresh.clientId !== app.clientId || refresh.revoked || state.isExpired(refresh)) {
      throw oauthError(400, 'invalid_request', 'The provided authorization grant or refresh token is invalid, expired or revoked');
    }
    // Never past the refresh token's own end (linkedin.md §2).
    const left = refresh.expiresAt === null ? state.settings.tokens.linkedinAccess : Math.floor((refresh.expiresAt - state.clock.now()) / 1000);
    const access = issue(state, app.clientId, refresh.subjectId, refresh.scopes, 'user', refresh.value, Math.min(state.settings.tokens.linkedinAccess, left));
    return answer(state, access, refresh);
  }
  throw oauthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
}

/** POST www.linkedin.com/oauth/v2/introspectToken: the token's status, expiry and scopes. */
export function linkedinIntrospect(ctx: RouteContext): unknown {
  const input = formFields(ctx);
  const app = client(ctx, input);
  const token = ctx.state.token(input.token ?? '');
  if (!token || token.platform !== 'linkedin' || token.clientId !== app.clientId) return { active: false };
  const status = token.revoked ? 'revoked' : ctx.state.isExpired(token) ? 'expired' : 'active';
  return {
    active: status === 'active',
    client_id: token.clientId,
    authorized_at: Math.floor(token.issuedAt / 1000),
    created_at: Math.floor(token.issuedAt / 1000),
    status,
    expires_at: token.expiresAt === null ? null : Math.floor(token.expiresAt / 1000),
    scope: token.scopes.join(','),
    auth_type: '3L',
  };
}

function issue(state: SandboxState, clientId: string, memberId: string, scopes: string[], type: 'user' | 'refresh', pairedWith: string | null, ttlSeconds: number): TokenRecord {
  return state.issueToken({
    value: `AQ${type === 'refresh' ? 'X' : 'V'}${state.ids.opaque(`linkedin-${type}`, 60)}`,
    platform: 'linkedin',
    type,
    clientId,
    subjectId: memberId,
    userId: memberId,
    scopes,
    declined: [],
    pageIds: [],
    longLived: type === 'refresh',
    ttlSeconds,
    pairedWith,
  });
}

function answer(state: SandboxState, access: TokenRecord, refresh: TokenRecord | null) {
  const now = state.clock.now();
  // Rounded: the milliseconds between issuing and answering are not a second of the token's life.
  const seconds = (at: number | null) => (at === null ? 0 : Math.max(0, Math.round((at - now) / 1000)));
  // LinkedIn lists the granted scopes comma-separated.
  const body: Record<string, unknown> = { access_token: access.value, expires_in: seconds(access.expiresAt), scope: access.scopes.join(','), token_type: 'Bearer' };
  if (refresh) Object.assign(body, { refresh_token: refresh.value, refresh_token_expires_in: seconds(refresh.expiresAt) });
  return body;
}
