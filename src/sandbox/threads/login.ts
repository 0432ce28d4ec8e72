// Threads OAuth (platforms.md §4.1): authorize at threads.net/oauth/authorize, code exchange at
// graph.threads.net/oauth/access_token (`user_id` as a bare 64-bit number), 60-day exchange
// (`th_exchange_token`) and refresh (`th_refresh_token`).
import type { RouteContext } from '../core/router.ts';
import { isHttpUrl, redirectTo, sendErrorPage, type ConsentFlow } from '../oauth/consent.ts';
import { parseScopes } from '../oauth/scopes.ts';
import { graphToken } from '../meta/auth.ts';
import type { GraphInput } from '../meta/params.ts';
import { issueLoginToken, redeemCode, type LoginFlavour } from '../meta/token-exchange.ts';

export const threadsFlavour: LoginFlavour = {
  platform: 'threads',
  tokenPrefix: 'THAA',
  exchangeGrant: 'th_exchange_token',
  refreshGrant: 'th_refresh_token',
  shortTtl: (ctx) => ctx.state.settings.tokens.threadsShort,
  longTtl: (ctx) => ctx.state.settings.tokens.threadsLong,
};

export const threadsConsent: ConsentFlow = {
  platform: 'threads',
  title: 'Threads',
  scopesSelectable: true,
  subjects: (state) => [...state.people.threadsUsers.values()].map((u) => ({ id: u.id, label: `@${u.username}` })),
  parse(ctx) {
    const q = ctx.query;
    if (!q.client_id) return sendErrorPage(ctx, 'Invalid Request', 'Invalid platform app');
    const redirectUri = q.redirect_uri ?? '';
    if (!isHttpUrl(redirectUri)) return sendErrorPage(ctx, 'Invalid Request', 'Invalid redirect_uri');
    const app = ctx.state.app('threads', q.client_id);
    if (app.redirectUris && !app.redirectUris.includes(redirectUri)) return sendErrorPage(ctx, 'Invalid Request', 'Invalid redirect_uri');
    if (q.response_type !== 'code') return sendErrorPage(ctx, 'Invalid Request', 'response_type must be code');
    const scopes = parseScopes(q.scope);
    if (!scopes.includes('threads_basic')) return sendErrorPage(ctx, 'Invalid Scopes', 'threads_basic is required');
    return { platform: 'threads', clientId: q.client_id, redirectUri, state: q.state ?? null, scopes, permanent: false, codeChallenge: null };
  },
  allowRedirect: (request, code) => redirectTo(request.redirectUri, { code: code.code, state: request.state }, '#_'),
  denyRedirect: (request) =>
    redirectTo(request.redirectUri, { error: 'access_denied', error_reason: 'user_denied', error_description: 'Permissions error', state: request.state }),
  codeTtlSeconds: (state) => state.settings.tokens.codeThreads,
};

export function threadsCodeExchange(ctx: RouteContext): unknown {
  const code = redeemCode(ctx, 'threads');
  const token = issueLoginToken(ctx, threadsFlavour, code, false);
  return { access_token: token.value, user_id: BigInt(code.subjectId) };
}

export const threadsToken = (ctx: RouteContext, input: GraphInput) => graphToken(ctx, input, { platforms: ['threads'] });
