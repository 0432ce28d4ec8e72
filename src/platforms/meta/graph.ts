// Graph calls shared by the Meta family: a request helper that classifies errors, the token
// calls of Facebook Login (platforms.md §1.5) and debug_token.
import type { PlatformContext, AppCredentials } from '../context.ts';
import type { PlatformRequest } from '../http.ts';
import { list, numberOf, obj, str, type Json } from '../json.ts';
import type { TokenInspection, TokenSet } from '../types.ts';
import { graphBody } from './errors.ts';

export const FACEBOOK_GRAPH = 'https://graph.facebook.com';

export async function graph(ctx: PlatformContext, platform: string, request: PlatformRequest): Promise<Json> {
  return graphBody(platform, await ctx.http.send(platform, request));
}

/** `{access_token, expires_in}` → TokenSet (expires_in 0 or absent: no expiry). */
export function tokenFrom(body: Json, now: number, scopes: string[]): TokenSet {
  const accessToken = str(body.access_token);
  if (!accessToken) throw new Error('no access_token in the answer');
  const expiresIn = numberOf(body.expires_in);
  return { accessToken, refreshToken: null, expiresAt: expiresIn ? now + expiresIn * 1000 : null, scopes };
}

const appToken = (app: AppCredentials) => `${app.clientId}|${app.clientSecret}`;

/** Code → short-lived user token → long-lived (60 days) user token. */
export async function facebookUserToken(ctx: PlatformContext, app: AppCredentials, platform: string, code: string, redirectUri: string, now: number): Promise<TokenSet> {
  const base = `${FACEBOOK_GRAPH}/${ctx.graphVersion}/oauth/access_token`;
  const short = await graph(ctx, platform, { url: base, query: { client_id: app.clientId, client_secret: app.clientSecret, redirect_uri: redirectUri, code } });
  const long = await graph(ctx, platform, {
    url: base,
    query: { grant_type: 'fb_exchange_token', client_id: app.clientId, client_secret: app.clientSecret, fb_exchange_token: str(short.access_token) ?? '' },
  });
  const token = tokenFrom(long, now, []);
  const inspection = await debugToken(ctx, app, platform, token.accessToken);
  return { ...token, scopes: inspection.scopes };
}

export interface DebugToken extends TokenInspection {
  /** Per scope, the objects it was granted on (Pages, Instagram accounts, WhatsApp accounts). */
  granular: Array<{ scope: string; targetIds: string[] }>;
  userId: string | null;
}

/** GET /debug_token with the app token: validity, expiry and scopes as Meta sees them. */
export async function debugToken(ctx: PlatformContext, app: AppCredentials, platform: string, token: string): Promise<DebugToken> {
  const body = await graph(ctx, platform, {
    url: `${FACEBOOK_GRAPH}/${ctx.graphVersion}/debug_token`,
    query: { input_token: token, access_token: appToken(app) },
  });
  const data = obj(body.data);
  const expires = numberOf(data.expires_at);
  return {
    valid: data.is_valid === true,
    // expires_at 0 means "never" (Page tokens from a long-lived user token).
    expiresAt: expires ? expires * 1000 : null,
    scopes: list(data.scopes).flatMap((s) => (typeof s === 'string' ? [s] : [])),
    granular: list(data.granular_scopes).map((g) => ({
      scope: str(obj(g).scope) ?? '',
      targetIds: list(obj(g).target_ids).flatMap((id) => (str(id) ? [String(id)] : [])),
    })),
    userId: str(data.user_id),
  };
}

export { appToken };
