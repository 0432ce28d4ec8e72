// The token steps that Instagram Login and Threads share (platforms.md §2.2, §4.1): a form POST
// that trades the code for a short-lived token (errors in the `{error_type, code, error_message}`
// shape), a GET that trades it for a 60-day token (`ig_exchange_token` / `th_exchange_token`,
// authenticated by the app secret alone), and a GET that refreshes a long-lived token at least
// 24 hours old (`ig_refresh_token` / `th_refresh_token`).
import type { AuthorizationCode, OAuthPlatform, TokenRecord } from '../core/model.ts';
import type { RouteContext } from '../core/router.ts';
import { checkLive } from './auth.ts';
import { graphError, invalidParameter, oauthEndpointError, tokenError } from './graph-error.ts';
import { graphInput, str } from './params.ts';

export interface LoginFlavour {
  platform: 'instagram' | 'threads';
  tokenPrefix: string;
  exchangeGrant: string;
  refreshGrant: string;
  shortTtl(ctx: RouteContext): number;
  longTtl(ctx: RouteContext): number;
}

/** POST …/oauth/access_token: checks client, secret, code, redirect_uri; marks the code used. */
export function redeemCode(ctx: RouteContext, platform: OAuthPlatform): AuthorizationCode {
  const input = graphInput(ctx);
  for (const key of ['client_id', 'client_secret', 'code', 'redirect_uri']) {
    if (!str(input, key)) throw oauthEndpointError(`Missing required field ${key}`);
  }
  const grantType = str(input, 'grant_type');
  if (grantType !== 'authorization_code') throw oauthEndpointError('Invalid grant_type: must be authorization_code');
  const clientId = str(input, 'client_id') ?? '';
  const app = ctx.state.findApp(platform, clientId);
  if (!app) throw oauthEndpointError('Invalid platform app');
  if (!ctx.state.checkSecret(app, str(input, 'client_secret') ?? '')) throw oauthEndpointError('Error validating client secret.');
  const code = ctx.state.codes.get(str(input, 'code') ?? '');
  if (!code || code.platform !== platform || code.clientId !== clientId || code.used) {
    throw oauthEndpointError('Matching code was not found or was already used');
  }
  if (code.expiresAt <= ctx.state.clock.now()) throw oauthEndpointError('This authorization code has expired.');
  if (code.redirectUri !== str(input, 'redirect_uri')) {
    throw oauthEndpointError('Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request');
  }
  code.used = true;
  return code;
}

export function issueLoginToken(ctx: RouteContext, flavour: LoginFlavour, from: Pick<TokenRecord, 'clientId' | 'subjectId' | 'scopes' | 'declined'>, longLived: boolean): TokenRecord {
  return ctx.state.issueToken({
    value: `${flavour.tokenPrefix}${ctx.state.ids.opaque(`${flavour.platform}-token`, 160)}`,
    platform: flavour.platform,
    type: 'user',
    clientId: from.clientId,
    subjectId: from.subjectId,
    userId: from.subjectId,
    scopes: from.scopes,
    declined: from.declined,
    pageIds: [],
    longLived,
    ttlSeconds: longLived ? flavour.longTtl(ctx) : flavour.shortTtl(ctx),
  });
}

function presentedToken(ctx: RouteContext, flavour: LoginFlavour): TokenRecord {
  const value = str(graphInput(ctx), 'access_token');
  const token = value ? ctx.state.token(value) : undefined;
  if (!token || token.platform !== flavour.platform || token.type !== 'user') throw tokenError('Invalid OAuth access token - Cannot parse access token');
  checkLive(ctx, token);
  return token;
}

const answer = (ctx: RouteContext, token: TokenRecord) => ({
  access_token: token.value,
  token_type: 'bearer',
  expires_in: Math.floor(((token.expiresAt ?? ctx.state.clock.now()) - ctx.state.clock.now()) / 1000),
});

/** GET /access_token?grant_type={ig|th}_exchange_token&client_secret=…&access_token={short}. */
export function exchangeLongLived(ctx: RouteContext, flavour: LoginFlavour): unknown {
  const input = graphInput(ctx);
  if (str(input, 'grant_type') !== flavour.exchangeGrant) throw invalidParameter(`(#100) grant_type must be ${flavour.exchangeGrant}`);
  const token = presentedToken(ctx, flavour);
  const app = ctx.state.findApp(flavour.platform, token.clientId);
  if (!app || !ctx.state.checkSecret(app, str(input, 'client_secret') ?? '')) throw graphError({ code: 1, message: 'Error validating client secret.', status: 400 });
  return answer(ctx, issueLoginToken(ctx, flavour, token, true));
}

/** GET /refresh_access_token?grant_type={ig|th}_refresh_token&access_token={long}. */
export function refreshLongLived(ctx: RouteContext, flavour: LoginFlavour): unknown {
  const input = graphInput(ctx);
  if (str(input, 'grant_type') !== flavour.refreshGrant) throw invalidParameter(`(#100) grant_type must be ${flavour.refreshGrant}`);
  const token = presentedToken(ctx, flavour);
  if (!token.longLived) throw invalidParameter('(#100) Only long-lived access tokens can be refreshed');
  if (ctx.state.clock.now() - token.issuedAt < 86_400_000) throw invalidParameter('(#100) The access token can be refreshed only after it is at least 24 hours old');
  return answer(ctx, issueLoginToken(ctx, flavour, token, true));
}
