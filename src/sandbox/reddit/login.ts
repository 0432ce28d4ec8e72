// reddit OAuth2 (platforms.md §6.1, §12): the authorize page at www.reddit.com/api/v1/authorize
// (state required; `duration=permanent` for a refresh token), and the token endpoint with HTTP
// Basic client auth. Code-exchange errors are HTTP 200 with `{"error": …}`; refresh errors 400.
import type { AppRecord, TokenRecord } from '../core/model.ts';
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { PlatformError } from '../core/platform-error.ts';
import { isHttpUrl, redirectTo, sendErrorPage, type ConsentFlow } from '../oauth/consent.ts';
import { parseScopes } from '../oauth/scopes.ts';
import { httpError } from './errors.ts';
import { basicCredentials, formFields } from '../oauth/token-request.ts';

export const REDDIT_SCOPES = new Set([
  'account', 'creddits', 'edit', 'flair', 'history', 'identity', 'modconfig', 'modcontributors', 'modflair', 'modlog', 'modmail', 'modothers',
  'modposts', 'modself', 'modtraffic', 'modwiki', 'mysubreddits', 'privatemessages', 'read', 'report', 'save', 'structuredstyles', 'submit',
  'subscribe', 'vote', 'wikiedit', 'wikiread',
]);

export const redditConsent: ConsentFlow = {
  platform: 'reddit',
  title: 'reddit',
  scopesSelectable: false,
  subjects: (state) => [...state.people.redditUsers.values()].map((u) => ({ id: u.id, label: `u/${u.name}` })),
  parse(ctx) {
    const q = ctx.query;
    if (!q.client_id) return sendErrorPage(ctx, 'Bad Request', 'invalid client id');
    const redirectUri = q.redirect_uri ?? '';
    if (!isHttpUrl(redirectUri)) return sendErrorPage(ctx, 'Bad Request', 'invalid redirect_uri parameter');
    const app = ctx.state.app('reddit', q.client_id);
    if (app.redirectUris && !app.redirectUris.includes(redirectUri)) return sendErrorPage(ctx, 'Bad Request', 'invalid redirect_uri parameter');
    if (!q.state) return sendErrorPage(ctx, 'Bad Request', 'invalid request: state is required');
    const fail = (error: string) => {
      void ctx.reply.redirect(redirectTo(redirectUri, { state: q.state ?? null, error }), 302);
      return null;
    };
    if (q.response_type !== 'code') return fail('unsupported_response_type');
    const scopes = parseScopes(q.scope);
    if (!scopes.length || scopes.some((s) => !REDDIT_SCOPES.has(s) && s !== '*')) return fail('invalid_scope');
    const duration = q.duration ?? 'temporary';
    if (duration !== 'temporary' && duration !== 'permanent') return fail('invalid_request');
    return { platform: 'reddit', clientId: q.client_id, redirectUri, state: q.state, scopes, permanent: duration === 'permanent', codeChallenge: null };
  },
  allowRedirect: (request, code) => redirectTo(request.redirectUri, { state: request.state, code: code.code }),
  denyRedirect: (request) => redirectTo(request.redirectUri, { state: request.state, error: 'access_denied' }),
  codeTtlSeconds: (state) => state.settings.tokens.codeReddit,
};

function basicClient(ctx: RouteContext): AppRecord {
  const { clientId, secret } = basicCredentials(ctx);
  const app = clientId ? ctx.state.findApp('reddit', clientId) : undefined;
  if (!app || !ctx.state.checkSecret(app, secret)) throw httpError(401);
  return app;
}

const form = formFields;

/** POST www.reddit.com/api/v1/access_token. */
export function redditAccessToken(ctx: RouteContext): unknown {
  const app = basicClient(ctx);
  const input = form(ctx);
  const state = ctx.state;
  if (input.grant_type === 'authorization_code') {
    const code = input.code ? state.codes.get(input.code) : undefined;
    const valid = code && code.platform === 'reddit' && code.clientId === app.clientId && !code.used && code.expiresAt > state.clock.now() && code.redirectUri === input.redirect_uri;
    if (!code || !valid) return { error: 'invalid_grant' };
    code.used = true;
    const refresh = code.permanent ? issue(state, app.clientId, code.subjectId, code.scopes, 'refresh', null) : null;
    const access = issue(state, app.clientId, code.subjectId, code.scopes, 'user', refresh?.value ?? null);
    return answer(state, access, refresh);
  }
  if (input.grant_type === 'refresh_token') {
    const refresh = input.refresh_token ? state.token(input.refresh_token) : undefined;
    if (!refresh || refresh.platform !== 'reddit' || refresh.type !== 'refresh' || refresh.clientId !== app.clientId || refresh.revoked) {
      throw new PlatformError(400, { error: 'invalid_grant' });
    }
    const access = issue(state, app.clientId, refresh.subjectId, refresh.scopes, 'user', refresh.value);
    return answer(state, access, refresh);
  }
  throw new PlatformError(400, { error: 'unsupported_grant_type' });
}

/** POST www.reddit.com/api/v1/revoke_token: a refresh token takes its access tokens with it. */
export function redditRevoke(ctx: RouteContext): unknown {
  const app = basicClient(ctx);
  const token = ctx.state.token(form(ctx).token ?? '');
  if (token && token.platform === 'reddit' && token.clientId === app.clientId) {
    token.revoked = 'logout';
    if (token.type === 'refresh') for (const t of ctx.state.tokens.values()) if (t.pairedWith === token.value) t.revoked = 'logout';
  }
  return ctx.reply.status(204).send();
}

function issue(state: SandboxState, clientId: string, userId: string, scopes: string[], type: 'user' | 'refresh', pairedWith: string | null): TokenRecord {
  return state.issueToken({
    value: `${state.ids.numeric(`reddit-${type}`, '1', 12)}-${state.ids.opaque(`reddit-${type}`, 30)}`,
    platform: 'reddit',
    type,
    clientId,
    subjectId: userId,
    userId,
    scopes,
    declined: [],
    pageIds: [],
    longLived: type === 'refresh',
    ttlSeconds: type === 'refresh' ? null : state.settings.tokens.redditAccess,
    pairedWith,
  });
}

function answer(state: SandboxState, access: TokenRecord, refresh: TokenRecord | null) {
  const body: Record<string, unknown> = { access_token: access.value, token_type: 'bearer', expires_in: state.settings.tokens.redditAccess, scope: access.scopes.join(' ') };
  if (refresh) body.refresh_token = refresh.value;
  return body;
}
