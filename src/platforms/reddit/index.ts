// reddit (platforms.md §6.1–6.2): authorize with `duration=permanent` (for a refresh token) and a
// required state, the token endpoint with HTTP Basic client auth, /api/v1/me for the profile,
// and a descriptive User-Agent on every call (generic ones are throttled).
import type { PlatformContext } from '../context.ts';
import { requireApp } from '../context.ts';
import { numberOf, str, type Json } from '../json.ts';
import type { PlatformAdapter, PlatformProfile, TokenSet } from '../types.ts';
import { scopesOf } from '../features.ts';
import { redditApi, redditToken } from './errors.ts';
import { redditPublisher } from './publish.ts';
import { redditComments } from './comments.ts';
import { redditInsights } from './insights.ts';
import type { PlatformDefinition } from '../definition.ts';
import { RedditData, RedditOptions } from './options.ts';
import { validateReddit } from './validate.ts';

export const REDDIT_FEATURES: Record<string, string[]> = {
  profile: ['identity'],
  // `history` reads the account's own submissions: an interrupted submit is looked for there.
  publish: ['submit', 'read', 'history'],
  edit: ['edit'],
  flair: ['flair'],
  // Reading a link's comment tree and commenting as the account.
  comments: ['read', 'submit'],
};

function tokenSet(body: Json, now: number, previousRefresh: string | null): TokenSet {
  const expiresIn = numberOf(body.expires_in);
  return {
    accessToken: str(body.access_token) ?? '',
    // Refresh answers may omit the refresh token: the old one stays valid then.
    refreshToken: str(body.refresh_token) ?? previousRefresh,
    expiresAt: expiresIn ? now + expiresIn * 1000 : null,
    scopes: (str(body.scope) ?? '').split(/[\s,]+/).filter(Boolean),
  };
}

export interface RedditSettings {
  /** reddit throttles generic User-Agents (platforms.md §6.2): ours names the app unless REDDIT_USER_AGENT does. */
  userAgent: string;
}

export const DEFAULT_REDDIT_AGENT = 'web:socialapi:v1.0.0 (by /u/socialapi)';

export function redditAdapter(ctx: PlatformContext, settings: RedditSettings): PlatformAdapter<'reddit'> {
  const tokenCall = async (form: Record<string, string>, now: number, previousRefresh: string | null) => {
    const app = requireApp(ctx.apps, 'reddit');
    const basic = Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64');
    const response = await ctx.http.send('reddit', { method: 'POST', url: 'https://www.reddit.com/api/v1/access_token', form, headers: { authorization: `Basic ${basic}`, 'user-agent': settings.userAgent } });
    return tokenSet(redditToken(response), now, previousRefresh);
  };
  const profile = async (token: string): Promise<PlatformProfile> => {
    const me = redditApi(await ctx.http.send('reddit', { url: 'https://oauth.reddit.com/api/v1/me', bearer: token, headers: { 'user-agent': settings.userAgent } }));
    return { platformUserId: str(me.id) ?? '', username: str(me.name), displayName: str(me.name), avatarUrl: str(me.icon_img), metadata: {} };
  };
  const comments = redditComments(ctx.http, settings.userAgent);
  return {
    platform: 'reddit',
    connectors: [
      {
        flavour: 'reddit',
        authorizeUrl({ state, redirectUri }) {
          const app = requireApp(ctx.apps, 'reddit');
          const url = new URL('https://www.reddit.com/api/v1/authorize');
          url.search = new URLSearchParams({ client_id: app.clientId, response_type: 'code', state, redirect_uri: redirectUri, duration: 'permanent', scope: scopesOf(REDDIT_FEATURES).join(' ') }).toString();
          return ctx.http.browserUrl(url.toString());
        },
        async complete({ code, redirectUri, now }) {
          const token = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }, now, null);
          return { kind: 'account', account: { profile: await profile(token.accessToken), token } };
        },
      },
    ],
    refresher: {
      refresh: (credentials, now) => tokenCall({ grant_type: 'refresh_token', refresh_token: credentials.refreshToken ?? '' }, now, credentials.refreshToken),
    },
    health: {
      async inspect(credentials) {
        await profile(credentials.accessToken);
        return { valid: true, expiresAt: credentials.expiresAt, scopes: credentials.scopes };
      },
      features: () => REDDIT_FEATURES,
    },
    publisher: redditPublisher(ctx.http, settings.userAgent),
    commentReader: comments.reader,
    commentWriter: comments.writer,
    postInsights: redditInsights(ctx.http, settings.userAgent),
  };
}

declare module '../types.ts' {
  interface PlatformNames {
    reddit: true;
  }
}

/** Everything the service knows about reddit (listed in ../registry.ts). */
export const redditPlatform: PlatformDefinition<'reddit', RedditSettings> = {
  name: 'reddit',
  displayName: 'Reddit',
  apps: [{ name: 'reddit', idVar: 'REDDIT_CLIENT_ID', secretVar: 'REDDIT_CLIENT_SECRET', sandbox: { clientId: 'sandbox-reddit-client', clientSecret: 'sandbox-reddit-secret' } }],
  settings: (read) => ({ userAgent: read.text('REDDIT_USER_AGENT') ?? DEFAULT_REDDIT_AGENT }),
  adapter: redditAdapter,
  pollComments: true,
  commentTree: true,
  publishing: { data: RedditData, options: RedditOptions, validate: validateReddit },
  // reddit's US mornings, earlier than the others' weekday afternoons.
  bestTime: [
    [0, 13, 100], [1, 13, 98], [2, 13, 96], [3, 13, 94], [0, 12, 90], [1, 12, 88], [4, 13, 86], [5, 14, 80], [6, 14, 78],
  ],
};
