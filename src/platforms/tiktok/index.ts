// tiktok (platforms.md §5.1): Login Kit v2 authorize, the token endpoint (codes arrive
// URL-encoded and are decoded once by the query parser, §12), rotating refresh tokens (always
// keep the newest), and /v2/user/info/ (which needs `fields`; the profile fields need their scope).
import type { PlatformContext } from '../context.ts';
import { requireApp } from '../context.ts';
import { numberOf, str, type Json } from '../json.ts';
import type { PlatformAdapter, PlatformProfile, TokenSet } from '../types.ts';
import { scopesOf } from '../features.ts';
import { tiktokData, tiktokOAuth } from './errors.ts';
import { tiktokPublisher } from './publish.ts';
import { tiktokInsights } from './insights.ts';
import type { PlatformDefinition } from '../definition.ts';
import { TiktokData, TiktokOptions } from './options.ts';
import { validateTiktok } from './validate.ts';
import { tiktokMedia } from './media-rules.ts';

const API = 'https://open.tiktokapis.com';

export const TIKTOK_FEATURES: Record<string, string[]> = {
  profile: ['user.info.basic', 'user.info.profile'],
  // `video.list` reads the creator's videos: an interrupted post is looked for there.
  publish: ['video.publish', 'video.list'],
  upload: ['video.upload'],
  // Counts of videos (Display API) and the creator's totals.
  insights: ['video.list', 'user.info.stats'],
};

function tokenSet(body: Json, now: number): TokenSet {
  const expiresIn = numberOf(body.expires_in);
  return {
    accessToken: str(body.access_token) ?? '',
    refreshToken: str(body.refresh_token),
    expiresAt: expiresIn ? now + expiresIn * 1000 : null,
    scopes: (str(body.scope) ?? '').split(',').map((s) => s.trim()).filter(Boolean),
  };
}

async function profile(ctx: PlatformContext, token: TokenSet): Promise<PlatformProfile> {
  const fields = ['open_id', 'union_id', 'avatar_url', 'display_name', ...(token.scopes.includes('user.info.profile') ? ['username'] : [])];
  const data = tiktokData(await ctx.http.send('tiktok', { url: `${API}/v2/user/info/`, query: { fields: fields.join(',') }, bearer: token.accessToken }));
  const user = (data.user && typeof data.user === 'object' ? data.user : {}) as Json;
  return { platformUserId: str(user.open_id) ?? '', username: str(user.username), displayName: str(user.display_name), avatarUrl: str(user.avatar_url), metadata: { unionId: str(user.union_id) } };
}

export interface TiktokSettings {
  /** How long TikTok may take to list a post it is processing (an interrupted init is looked for that long). */
  settleMs: number;
}

export function tiktokAdapter(ctx: PlatformContext, settings: TiktokSettings): PlatformAdapter<'tiktok'> {
  const insights = tiktokInsights(ctx.http);
  const tokenCall = async (form: Record<string, string>, now: number) => {
    const app = requireApp(ctx.apps, 'tiktok');
    const response = await ctx.http.send('tiktok', { method: 'POST', url: `${API}/v2/oauth/token/`, form: { client_key: app.clientId, client_secret: app.clientSecret, ...form } });
    return tokenSet(tiktokOAuth(response), now);
  };
  return {
    platform: 'tiktok',
    connectors: [
      {
        flavour: 'tiktok',
        authorizeUrl({ state, redirectUri }) {
          const app = requireApp(ctx.apps, 'tiktok');
          const url = new URL('https://www.tiktok.com/v2/auth/authorize/');
          url.search = new URLSearchParams({ client_key: app.clientId, response_type: 'code', scope: scopesOf(TIKTOK_FEATURES).join(','), redirect_uri: redirectUri, state }).toString();
          return ctx.http.browserUrl(url.toString());
        },
        async complete({ code, redirectUri, now }) {
          const token = await tokenCall({ code, grant_type: 'authorization_code', redirect_uri: redirectUri }, now);
          return { kind: 'account', account: { profile: await profile(ctx, token), token } };
        },
      },
    ],
    refresher: {
      refresh: (credentials, now) => tokenCall({ grant_type: 'refresh_token', refresh_token: credentials.refreshToken ?? '' }, now),
    },
    health: {
      async inspect(credentials) {
        // TikTok has no token introspection: a user-info read proves the token; the scopes are
        // those of the last token answer.
        await profile(ctx, { accessToken: credentials.accessToken, refreshToken: null, expiresAt: null, scopes: credentials.scopes });
        return { valid: true, expiresAt: credentials.expiresAt, scopes: credentials.scopes };
      },
      features: () => TIKTOK_FEATURES,
    },
    publisher: tiktokPublisher(ctx.http, settings.settleMs),
    postInsights: insights.post,
    accountInsights: insights.account,
  };
}

declare module '../types.ts' {
  interface PlatformNames {
    tiktok: true;
  }
}

/** Everything the service knows about tiktok (listed in ../registry.ts). */
export const tiktokPlatform: PlatformDefinition<'tiktok', TiktokSettings> = {
  name: 'tiktok',
  displayName: 'TikTok',
  apps: [{ name: 'tiktok', idVar: 'TIKTOK_CLIENT_KEY', secretVar: 'TIKTOK_CLIENT_SECRET', sandbox: { clientId: 'sbxtiktokclientkey', clientSecret: 'sandbox-tiktok-secret' } }],
  settings: (read) => ({ settleMs: read.integer('TIKTOK_SETTLE_MS', 600_000, 0, 86_400_000) }),
  adapter: tiktokAdapter,
  publishing: { data: TiktokData, options: TiktokOptions, validate: validateTiktok, media: tiktokMedia },
  // tiktok's late afternoons.
  bestTime: [
    [1, 16, 100], [3, 16, 98], [4, 17, 96], [2, 16, 94], [0, 17, 90], [5, 15, 86], [6, 18, 84],
  ],
};
