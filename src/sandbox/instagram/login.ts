// Instagram API with Instagram Login (platforms.md §2.1–2.2): the authorize page at
// www.instagram.com/oauth/authorize, the code exchange at api.instagram.com/oauth/access_token
// (`user_id` as a bare 64-bit number, §12), and the 60-day exchange and refresh at
// graph.instagram.com.
import type { RouteContext } from '../core/router.ts';
import { isHttpUrl, redirectTo, sendErrorPage, type ConsentFlow } from '../oauth/consent.ts';
import { parseScopes } from '../oauth/scopes.ts';
import { issueLoginToken, redeemCode, type LoginFlavour } from '../meta/token-exchange.ts';

export const instagramFlavour: LoginFlavour = {
  platform: 'instagram',
  tokenPrefix: 'IGAA',
  exchangeGrant: 'ig_exchange_token',
  refreshGrant: 'ig_refresh_token',
  shortTtl: (ctx) => ctx.state.settings.tokens.instagramShort,
  longTtl: (ctx) => ctx.state.settings.tokens.instagramLong,
};

export const instagramConsent: ConsentFlow = {
  platform: 'instagram',
  title: 'Instagram',
  scopesSelectable: true,
  subjects: (state) => [...state.people.instagramAccounts.values()].map((a) => ({ id: a.id, label: `@${a.username}` })),
  parse(ctx) {
    const q = ctx.query;
    if (!q.client_id) return sendErrorPage(ctx, 'Invalid Request', 'Invalid platform app');
    const redirectUri = q.redirect_uri ?? '';
    if (!isHttpUrl(redirectUri)) return sendErrorPage(ctx, 'Invalid Request', 'Invalid redirect_uri');
    const app = ctx.state.app('instagram', q.client_id);
    if (app.redirectUris && !app.redirectUris.includes(redirectUri)) return sendErrorPage(ctx, 'Invalid Request', 'Invalid redirect_uri');
    if (q.response_type !== 'code') return sendErrorPage(ctx, 'Invalid Request', 'response_type must be code');
    const scopes = parseScopes(q.scope);
    if (!scopes.includes('instagram_business_basic') && !scopes.includes('instagram_basic')) {
      return sendErrorPage(ctx, 'Invalid Scopes', 'instagram_business_basic is required');
    }
    return { platform: 'instagram', clientId: q.client_id, redirectUri, state: q.state ?? null, scopes, permanent: false, codeChallenge: null };
  },
  allowRedirect: (request, code) => redirectTo(request.redirectUri, { code: code.code, state: request.state }, '#_'),
  denyRedirect: (request) =>
    redirectTo(request.redirectUri, { error: 'access_denied', error_reason: 'user_denied', error_description: 'The user denied your request.', state: request.state }),
  codeTtlSeconds: (state) => state.settings.tokens.codeInstagram,
};

/** POST api.instagram.com/oauth/access_token. */
export function instagramCodeExchange(ctx: RouteContext): unknown {
  const code = redeemCode(ctx, 'instagram');
  const token = issueLoginToken(ctx, instagramFlavour, code, false);
  const body = { access_token: token.value, user_id: BigInt(code.subjectId), permissions: code.scopes };
  return ctx.state.settings.instagram.tokenResponseShape === 'data' ? { data: [{ ...body, permissions: code.scopes.join(',') }] } : body;
}
