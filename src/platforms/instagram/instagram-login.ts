// Instagram API with Instagram Login (platforms.md §2.1–2.2): authorize on www.instagram.com,
// the code exchange on api.instagram.com (flat or `data`-wrapped answer; `user_id` there is a
// bare int64 that JSON.parse would round, so the id is read from /me instead, §12), the 60-day
// token and its refresh on graph.instagram.com.
import type { PlatformContext } from '../context.ts';
import { requireApp } from '../context.ts';
import { graph, tokenFrom } from '../meta/graph.ts';
import { list, numberOf, obj, str, type Json } from '../json.ts';
import type { AccountCredentials, OAuthConnector, PlatformProfile, TokenSet } from '../types.ts';
import { scopesOf } from '../features.ts';

export const INSTAGRAM_GRAPH = 'https://graph.instagram.com';

export const INSTAGRAM_LOGIN_FEATURES: Record<string, string[]> = {
  publish: ['instagram_business_basic', 'instagram_business_content_publish'],
  comments: ['instagram_business_manage_comments'],
  messages: ['instagram_business_manage_messages'],
  insights: ['instagram_business_manage_insights'],
};

function permissionsOf(value: unknown): string[] {
  if (typeof value === 'string') return value.split(',').map((s) => s.trim()).filter(Boolean);
  return list(value).flatMap((p) => (typeof p === 'string' ? [p] : []));
}

export async function instagramProfile(ctx: PlatformContext, token: string): Promise<PlatformProfile> {
  const me = await graph(ctx, 'instagram', {
    url: `${INSTAGRAM_GRAPH}/${ctx.graphVersion}/me`,
    query: { fields: 'user_id,username,name,profile_picture_url', access_token: token },
  });
  return {
    platformUserId: str(me.user_id) ?? str(me.id) ?? '',
    username: str(me.username),
    displayName: str(me.name),
    avatarUrl: str(me.profile_picture_url),
    metadata: { login: 'instagram' },
  };
}

export function instagramLoginConnector(ctx: PlatformContext): OAuthConnector {
  return {
    flavour: 'instagram',
    authorizeUrl({ state, redirectUri }) {
      const app = requireApp(ctx.apps, 'instagram');
      const url = new URL('https://www.instagram.com/oauth/authorize');
      url.search = new URLSearchParams({ client_id: app.clientId, redirect_uri: redirectUri, response_type: 'code', scope: scopesOf(INSTAGRAM_LOGIN_FEATURES).join(','), state }).toString();
      return ctx.http.browserUrl(url.toString());
    },
    async complete({ code, redirectUri, now }) {
      const app = requireApp(ctx.apps, 'instagram');
      const answer = await graph(ctx, 'instagram', {
        method: 'POST',
        url: 'https://api.instagram.com/oauth/access_token',
        form: { client_id: app.clientId, client_secret: app.clientSecret, grant_type: 'authorization_code', redirect_uri: redirectUri, code },
      });
      const short: Json = Array.isArray(answer.data) ? obj(answer.data[0]) : answer;
      const long = await graph(ctx, 'instagram', {
        url: `${INSTAGRAM_GRAPH}/access_token`,
        query: { grant_type: 'ig_exchange_token', client_secret: app.clientSecret, access_token: str(short.access_token) ?? '' },
      });
      const token = tokenFrom(long, now, permissionsOf(short.permissions));
      return { kind: 'account', account: { profile: await instagramProfile(ctx, token.accessToken), token } };
    },
  };
}

/** A 60-day token at least 24 hours old can be refreshed for another 60 days. */
export async function refreshInstagramLogin(ctx: PlatformContext, credentials: AccountCredentials, now: number): Promise<TokenSet> {
  const body = await graph(ctx, 'instagram', {
    url: `${INSTAGRAM_GRAPH}/refresh_access_token`,
    query: { grant_type: 'ig_refresh_token', access_token: credentials.accessToken },
  });
  return tokenFrom(body, now, credentials.scopes);
}

/** content_publishing_limit (§2.3): `{data:[{quota_usage, config:{quota_total, quota_duration}}]}`. */
export function limitFrom(body: Json): { used: number; allowed: number; windowHours: number } {
  const row = obj(list(body.data)[0]);
  const config = obj(row.config);
  const duration = numberOf(config.quota_duration) ?? 86_400;
  return { used: numberOf(row.quota_usage) ?? 0, allowed: numberOf(config.quota_total) ?? 0, windowHours: Math.round(duration / 3600) };
}
