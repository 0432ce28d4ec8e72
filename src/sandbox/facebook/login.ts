// Facebook Login, manual flow (platforms.md §1.5): the dialog at www.facebook.com/vXX.0/dialog/oauth
// and the code exchange, long-lived exchange (`fb_exchange_token`) and app token
// (`client_credentials`) at graph.facebook.com/vXX.0/oauth/access_token. Instagram with
// Facebook Login uses the same flow with instagram_* permissions.
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import type { TokenRecord } from '../core/model.ts';
import { isHttpUrl, redirectTo, sendErrorPage, type ConsentFlow } from '../oauth/consent.ts';
import { parseScopes } from '../oauth/scopes.ts';
import { graphError, invalidParameter } from '../meta/graph-error.ts';
import { checkLive } from '../meta/auth.ts';
import { unknownPermissions } from './permissions.ts';
import { graphInput, str } from '../meta/params.ts';

export const facebookConsent: ConsentFlow = {
  platform: 'facebook',
  title: 'Facebook',
  scopesSelectable: true,
  subjects: (state) => [...state.people.facebookUsers.values()].map((u) => ({ id: u.id, label: `${u.name} (${u.email})` })),
  pages: (state, subjectId) =>
    (state.people.facebookUsers.get(subjectId)?.pageIds ?? []).flatMap((id) => {
      const page = state.people.pages.get(id);
      return page ? [{ id: page.id, name: page.name }] : [];
    }),
  parse(ctx) {
    const q = ctx.query;
    if (!q.client_id) return sendErrorPage(ctx, 'Invalid App ID', 'The provided app ID does not look like a valid app ID.');
    const redirectUri = q.redirect_uri ?? '';
    if (!isHttpUrl(redirectUri)) return sendErrorPage(ctx, "Can't Load URL", 'The redirect_uri is missing or is not a valid URL.');
    const app = ctx.state.app('facebook', q.client_id);
    if (app.redirectUris && !app.redirectUris.includes(redirectUri)) {
      return sendErrorPage(ctx, 'URL Blocked', "This redirect failed because the redirect URI is not whitelisted in the app's Client OAuth Settings.");
    }
    if (q.response_type && q.response_type !== 'code') return sendErrorPage(ctx, 'Unsupported response_type', 'The sandbox serves the code flow only.');
    const scopes = q.config_id ? ctx.state.settings.facebook.configScopes : parseScopes(q.scope);
    const unknown = unknownPermissions(scopes);
    if (unknown.length) return sendErrorPage(ctx, 'Invalid Scopes', `Invalid Scopes: ${unknown.join(', ')}. This message is only shown to developers of the app.`);
    return { platform: 'facebook', clientId: q.client_id, redirectUri, state: q.state ?? null, scopes, permanent: false, codeChallenge: null };
  },
  allowRedirect: (request, code) => redirectTo(request.redirectUri, { code: code.code, state: request.state }, '#_=_'),
  denyRedirect: (request) =>
    redirectTo(
      request.redirectUri,
      { error_code: '200', error: 'access_denied', error_description: 'Permissions error', error_reason: 'user_denied', state: request.state },
      '#_=_',
    ),
  codeTtlSeconds: (state) => state.settings.tokens.codeFacebook,
};

/** GET or POST /oauth/access_token on graph.facebook.com. */
export function facebookAccessToken(ctx: RouteContext): unknown {
  const input = graphInput(ctx);
  const clientId = str(input, 'client_id');
  const secret = str(input, 'client_secret');
  if (!clientId) throw graphError({ code: 101, message: 'Missing client_id parameter.' });
  const app = ctx.state.findApp('facebook', clientId);
  if (!app) throw graphError({ code: 101, message: 'Error validating application. Invalid application ID.' });
  if (!secret || !ctx.state.checkSecret(app, secret)) throw graphError({ code: 1, message: 'Error validating client secret.', status: 400 });
  const grantType = str(input, 'grant_type');
  if (grantType === 'client_credentials') return { access_token: `${clientId}|${secret}`, token_type: 'bearer' };
  if (grantType === 'fb_exchange_token') return exchangeForLongLived(ctx, clientId, str(input, 'fb_exchange_token'));
  if (grantType && grantType !== 'authorization_code') throw invalidParameter(`Unsupported grant_type: ${grantType}`);
  return exchangeCode(ctx, clientId, str(input, 'code'), str(input, 'redirect_uri'));
}

function exchangeCode(ctx: RouteContext, clientId: string, codeValue: string | undefined, redirectUri: string | undefined): unknown {
  const state = ctx.state;
  const code = codeValue ? state.codes.get(codeValue) : undefined;
  if (!code || code.platform !== 'facebook' || code.clientId !== clientId) throw invalidParameter('Invalid verification code format.');
  if (code.used) throw invalidParameter('This authorization code has been used.', 36009);
  if (code.expiresAt <= state.clock.now()) throw invalidParameter('This authorization code has expired.', 36007);
  if (redirectUri !== code.redirectUri) {
    throw invalidParameter('Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request', 36008);
  }
  code.used = true;
  const token = issueUserToken(state, {
    clientId,
    userId: code.subjectId,
    scopes: code.scopes,
    declined: code.declined,
    pageIds: code.pageIds,
    longLived: false,
  });
  return tokenAnswer(state, token);
}

function exchangeForLongLived(ctx: RouteContext, clientId: string, value: string | undefined): unknown {
  const short = value ? ctx.state.token(value) : undefined;
  if (!short || short.platform !== 'facebook' || short.type !== 'user') throw graphError({ code: 190, message: 'Invalid OAuth access token - Cannot parse access token' });
  if (short.clientId !== clientId) throw graphError({ code: 190, message: 'Error validating access token: The token was not issued for this application.' });
  checkLive(ctx, short);
  const token = issueUserToken(ctx.state, { ...short, userId: short.subjectId, longLived: true });
  return tokenAnswer(ctx.state, token);
}

export function issueUserToken(
  state: SandboxState,
  input: { clientId: string; userId: string; scopes: string[]; declined: string[]; pageIds: string[]; longLived: boolean },
): TokenRecord {
  return state.issueToken({
    value: `EAA${state.ids.opaque('fb-token', 180)}`,
    platform: 'facebook',
    type: 'user',
    clientId: input.clientId,
    subjectId: input.userId,
    userId: input.userId,
    scopes: input.scopes,
    declined: input.declined,
    pageIds: input.pageIds,
    longLived: input.longLived,
    ttlSeconds: input.longLived ? state.settings.tokens.facebookLong : state.settings.tokens.facebookShort,
  });
}

/** A Page token, derived from a user token: no expiry when the user token is long-lived (§1.5). */
export function pageToken(state: SandboxState, userToken: TokenRecord, pageId: string): TokenRecord {
  const existing = [...state.tokens.values()].find(
    (t) =>
      t.type === 'page' &&
      t.subjectId === pageId &&
      t.userId === userToken.userId &&
      t.clientId === userToken.clientId &&
      t.longLived === userToken.longLived &&
      t.scopes.join(',') === userToken.scopes.join(',') &&
      t.revoked === null &&
      !state.isExpired(t),
  );
  if (existing) return existing;
  const token = state.issueToken({
    value: `EAA${state.ids.opaque('fb-page-token', 180)}`,
    platform: 'facebook',
    type: 'page',
    clientId: userToken.clientId,
    subjectId: pageId,
    userId: userToken.userId,
    scopes: userToken.scopes,
    declined: userToken.declined,
    pageIds: [pageId],
    longLived: userToken.longLived,
    ttlSeconds: null,
  });
  token.expiresAt = userToken.longLived ? null : userToken.expiresAt;
  return token;
}

function tokenAnswer(state: SandboxState, token: TokenRecord) {
  const expiresIn = token.expiresAt === null ? undefined : Math.max(0, Math.floor((token.expiresAt - state.clock.now()) / 1000));
  return { access_token: token.value, token_type: 'bearer', expires_in: expiresIn };
}
