// Google OAuth 2.0 for web servers (youtube.md §2): the consent page at
// accounts.google.com/o/oauth2/v2/auth, where the account chooser lists each identity (the
// person's own channel and each Brand Account) and the person may untick scopes; `access_type=offline`
// makes the code carry a refresh token. The token endpoint at oauth2.googleapis.com exchanges the
// code (single use, redirect_uri must match) and refreshes (no new refresh token; a revoked,
// unknown or, for apps in "Testing" status, 7-day-old refresh token is `invalid_grant`), and
// /revoke ends a token and its pair.
import type { TokenRecord } from '../core/model.ts';
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { isHttpUrl, redirectTo, sendErrorPage, type ConsentFlow } from '../oauth/consent.ts';
import { parseScopes } from '../oauth/scopes.ts';
import { basicCredentials, formFields } from '../oauth/token-request.ts';
import { SCOPE } from './auth.ts';
import { oauthError } from './errors.ts';
import { channelsOfIdentity, identitiesOf } from './people.ts';

const KNOWN_SCOPES = new Set<string>([...Object.values(SCOPE), 'openid', 'email', 'profile', 'https://www.googleapis.com/auth/userinfo.email', 'https://www.googleapis.com/auth/userinfo.profile']);
const TESTING_REFRESH_SECONDS = 7 * 86_400;

export const googleConsent: ConsentFlow = {
  platform: 'youtube',
  title: 'Google',
  // Granular consent: the person may untick what they do not grant.
  scopesSelectable: true,
  subjects: (state) =>
    [...state.people.googleUsers.values()].flatMap((user) =>
      identitiesOf(state, user).map((identity) => {
        const channels = channelsOfIdentity(state, identity);
        const first = channels[0];
        const label = !first ? `${user.name} (no YouTube channel)` : first.brandAccount ? `${channels.map((c) => c.title).join(', ')} (Brand Account of ${user.name})` : `${user.name} (${channels.map((c) => c.title).join(', ')})`;
        return { id: identity, label };
      }),
    ),
  parse(ctx) {
    const q = ctx.query;
    if (!q.client_id) return sendErrorPage(ctx, 'Error 400: invalid_request', 'Missing required parameter: client_id');
    const redirectUri = q.redirect_uri ?? '';
    if (!isHttpUrl(redirectUri)) return sendErrorPage(ctx, 'Error 400: redirect_uri_mismatch', 'Missing or invalid redirect_uri');
    const app = ctx.state.app('youtube', q.client_id);
    if (app.redirectUris && !app.redirectUris.includes(redirectUri)) return sendErrorPage(ctx, 'Error 400: redirect_uri_mismatch', `The redirect_uri ${redirectUri} is not registered for this client`);
    if (q.response_type !== 'code') return sendErrorPage(ctx, 'Error 400: invalid_request', 'response_type must be code for a web server application');
    const scopes = parseScopes(q.scope);
    if (!scopes.length) return sendErrorPage(ctx, 'Error 400: invalid_request', 'Missing required parameter: scope');
    const unknown = scopes.find((s) => !KNOWN_SCOPES.has(s));
    if (unknown) return sendErrorPage(ctx, 'Error 400: invalid_scope', `Some requested scopes were invalid: ${unknown}`);
    if (q.access_type !== undefined && q.access_type !== 'offline' && q.access_type !== 'online') return sendErrorPage(ctx, 'Error 400: invalid_request', `Invalid access_type: ${q.access_type}`);
    // `permanent`: the grant is for offline access, so the code yields a refresh token.
    return { platform: 'youtube', clientId: q.client_id, redirectUri, state: q.state ?? null, scopes, permanent: q.access_type === 'offline', codeChallenge: null };
  },
  allowRedirect: (request, code) => redirectTo(request.redirectUri, { state: request.state, code: code.code, scope: code.scopes.join(' ') }),
  denyRedirect: (request) => redirectTo(request.redirectUri, { error: 'access_denied', state: request.state }),
  codeTtlSeconds: (state) => state.settings.tokens.codeGoogle,
  codeValue: (state) => `4/0A${state.ids.opaque('google-code', 60)}`,
};

function client(ctx: RouteContext, input: Record<string, string>) {
  const basic = basicCredentials(ctx);
  const clientId = input.client_id ?? basic.clientId;
  const secret = input.client_secret ?? basic.secret;
  const app = clientId ? ctx.state.findApp('youtube', clientId) : undefined;
  if (!app || !ctx.state.checkSecret(app, secret)) throw oauthError(401, 'invalid_client', 'Unauthorized');
  return app;
}

/** POST oauth2.googleapis.com/token. */
export function googleToken(ctx: RouteContext): unknown {
  const input = formFields(ctx);
  const state = ctx.state;
  if (input.grant_type === 'authorization_code') {
    const app = client(ctx, input);
    const code = input.code ? state.codes.get(input.code) : undefined;
    if (!code || code.platform !== 'youtube' || code.clientId !== app.clientId || code.used || code.expiresAt <= state.clock.now()) throw oauthError(400, 'invalid_grant', 'Bad Request');
    if (code.redirectUri !== input.redirect_uri) throw oauthError(400, 'redirect_uri_mismatch', 'Bad Request');
    code.used = true;
    const refreshTtl = state.settings.youtube.testing ? TESTING_REFRESH_SECONDS : null;
    const refresh = code.permanent ? issue(state, app.clientId, code.subjectId, code.scopes, 'refresh', null, refreshTtl) : null;
    const access = issue(state, app.clientId, code.subjectId, code.scopes, 'user', refresh?.value ?? null, state.settings.tokens.googleAccess);
    return answer(state, access, refresh);
  }
  if (input.grant_type === 'refresh_token') {
    const app = client(ctx, input);
    const refresh = input.refresh_token ? state.token(input.refresh_token) : undefined;
    if (!refresh || refresh.platform !== 'youtube' || refresh.type !== 'refresh' || refresh.clientId !== app.clientId || refresh.revoked || state.isExpired(refresh)) {
      throw oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
    }
    const access = issue(state, app.clientId, refresh.subjectId, refresh.scopes, 'user', refresh.value, state.settings.tokens.googleAccess);
    return answer(state, access, null);
  }
  throw oauthError(400, 'unsupported_grant_type', `Invalid grant_type: ${input.grant_type ?? ''}`);
}

/** POST oauth2.googleapis.com/revoke?token=…: the token and its pair end. */
export function googleRevoke(ctx: RouteContext): unknown {
  const value = ctx.query.token ?? formFields(ctx).token ?? '';
  const token = ctx.state.token(value);
  if (!token || token.platform !== 'youtube') throw oauthError(400, 'invalid_token', 'Token expired or revoked');
  ctx.state.revokeToken(value, 'deauthorized');
  return {};
}

function issue(state: SandboxState, clientId: string, identityId: string, scopes: string[], type: 'user' | 'refresh', pairedWith: string | null, ttlSeconds: number | null): TokenRecord {
  return state.issueToken({
    value: type === 'refresh' ? `1//0${state.ids.opaque('google-refresh', 60)}` : `ya29.a0${state.ids.opaque('google-access', 100)}`,
    platform: 'youtube',
    type,
    clientId,
    subjectId: identityId,
    userId: identityId,
    scopes,
    declined: [],
    pageIds: [],
    longLived: type === 'refresh',
    ttlSeconds,
    pairedWith,
  });
}

function answer(state: SandboxState, access: TokenRecord, refresh: TokenRecord | null) {
  const seconds = access.expiresAt === null ? 3599 : Math.max(0, Math.round((access.expiresAt - state.clock.now()) / 1000));
  return { access_token: access.value, expires_in: seconds, scope: access.scopes.join(' '), token_type: 'Bearer', ...(refresh ? { refresh_token: refresh.value } : {}) };
}
