// Pinterest OAuth 2.0 (platforms/pinterest.md §2): the consent page at www.pinterest.com/oauth/
// (comma-separated scopes; Cancel redirects with error=access_denied), and the token endpoint
// POST api.pinterest.com/v5/oauth/token with HTTP Basic client auth (app id and secret), for the
// code and for refresh tokens. Continuous refresh: every refresh answers a new refresh token
// with a new expiry, and the one used stops working, so only a client that stores the newest
// keeps its grant.
import type { AppRecord, TokenRecord } from '../core/model.ts';
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { isHttpUrl, redirectTo, sendErrorPage, type ConsentFlow } from '../oauth/consent.ts';
import { parseScopes } from '../oauth/scopes.ts';
import { basicCredentials, formFields } from '../oauth/token-request.ts';
import { pinterestError } from './errors.ts';

export const PINTEREST_SCOPES = new Set([
  'ads:read', 'ads:write', 'boards:read', 'boards:read_secret', 'boards:write', 'boards:write_secret', 'catalogs:read', 'catalogs:write',
  'pins:read', 'pins:read_secret', 'pins:write', 'pins:write_secret', 'user_accounts:read',
]);

export const pinterestConsent: ConsentFlow = {
  platform: 'pinterest',
  title: 'Pinterest',
  scopesSelectable: false,
  subjects: (state) => [...state.people.pinterestUsers.values()].map((u) => ({ id: u.id, label: u.username })),
  parse(ctx) {
    const q = ctx.query;
    if (!q.client_id) return sendErrorPage(ctx, 'Something went wrong', 'client_id is required');
    const redirectUri = q.redirect_uri ?? '';
    const app = ctx.state.app('pinterest', q.client_id);
    if (!isHttpUrl(redirectUri) || (app.redirectUris && !app.redirectUris.includes(redirectUri))) {
      return sendErrorPage(ctx, 'Something went wrong', `The provided redirect_uri ${redirectUri} does not match any of the registered redirect URIs.`);
    }
    const fail = (error: string, description: string) => {
      void ctx.reply.redirect(redirectTo(redirectUri, { error, error_description: description, state: q.state ?? null }), 302);
      return null;
    };
    if (q.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be code');
    const scopes = parseScopes(q.scope);
    if (!scopes.length) return fail('invalid_scope', 'scope is required');
    const unknown = scopes.find((s) => !PINTEREST_SCOPES.has(s));
    if (unknown) return fail('invalid_scope', `unknown scope ${unknown}`);
    return { platform: 'pinterest', clientId: q.client_id, redirectUri, state: q.state ?? null, scopes, permanent: true, codeChallenge: null };
  },
  allowRedirect: (request, code) => redirectTo(request.redirectUri, { code: code.code, state: request.state }),
  denyRedirect: (request) => redirectTo(request.redirectUri, { error: 'access_denied', state: request.state }),
  codeTtlSeconds: (state) => state.settings.tokens.codePinterest,
};

function basicClient(ctx: RouteContext): AppRecord {
  const { clientId, secret } = basicCredentials(ctx);
  const app = clientId ? ctx.state.findApp('pinterest', clientId) : undefined;
  if (!app || !ctx.state.checkSecret(app, secret)) throw pinterestError(401, 2, 'Authentication failed: the client id and secret must come in an Authorization: Basic header.');
  return app;
}

/** POST api.pinterest.com/v5/oauth/token. */
export function pinterestToken(ctx: RouteContext): unknown {
  const app = basicClient(ctx);
  const input = formFields(ctx);
  const state = ctx.state;
  if (input.grant_type === 'authorization_code') {
    const code = input.code ? state.codes.get(input.code) : undefined;
    const valid = code && code.platform === 'pinterest' && code.clientId === app.clientId && !code.used && code.expiresAt > state.clock.now();
    if (!code || !valid) throw pinterestError(400, 1, 'Invalid authorization code.');
    if (code.redirectUri !== input.redirect_uri) throw pinterestError(400, 1, 'redirect_uri does not match the one of the authorization request.');
    code.used = true;
    return issuePair(state, app.clientId, code.subjectId, code.scopes, 'authorization_code');
  }
  if (input.grant_type === 'refresh_token') {
    const refresh = input.refresh_token ? state.token(input.refresh_token) : undefined;
    if (!refresh || refresh.platform !== 'pinterest' || refresh.type !== 'refresh' || refresh.clientId !== app.clientId || refresh.revoked || state.isExpired(refresh)) {
      throw pinterestError(400, 1, 'Invalid refresh token.');
    }
    const asked = parseScopes(input.scope);
    if (asked.some((s) => !refresh.scopes.includes(s))) throw pinterestError(400, 1, 'scope asks for more than the grant holds.');
    // Continuous refresh: a new refresh token replaces the one used.
    refresh.revoked = 'logout';
    return issuePair(state, app.clientId, refresh.subjectId, asked.length ? asked : refresh.scopes, 'refresh_token');
  }
  throw pinterestError(400, 1, 'grant_type must be authorization_code or refresh_token.');
}

function issue(state: SandboxState, clientId: string, userId: string, scopes: string[], type: 'user' | 'refresh', pairedWith: string | null): TokenRecord {
  return state.issueToken({
    value: `pina_${state.ids.opaque(`pinterest-${type}`, 60)}`,
    platform: 'pinterest',
    type,
    clientId,
    subjectId: userId,
    userId,
    scopes,
    declined: [],
    pageIds: [],
    longLived: type === 'refresh',
    ttlSeconds: type === 'refresh' ? state.settings.tokens.pinterestRefresh : state.settings.tokens.pinterestAccess,
    pairedWith,
  });
}

function issuePair(state: SandboxState, clientId: string, userId: string, scopes: string[], responseType: string) {
  const refresh = issue(state, clientId, userId, scopes, 'refresh', null);
  const access = issue(state, clientId, userId, scopes, 'user', refresh.value);
  refresh.pairedWith = access.value;
  const refreshIn = state.settings.tokens.pinterestRefresh;
  return {
    access_token: access.value,
    token_type: 'bearer',
    expires_in: state.settings.tokens.pinterestAccess,
    scope: scopes.join(','),
    refresh_token: refresh.value,
    refresh_token_expires_in: refreshIn,
    refresh_token_expires_at: Math.floor(state.clock.now() / 1000) + refreshIn,
    response_type: responseType,
  };
}
