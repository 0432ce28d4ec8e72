// x (platforms/x.md §2): OAuth 2.0 authorization code with PKCE (S256) as a confidential client
// (HTTP Basic at the token endpoint), the 30-second code exchanged inside the callback, the
// profile from /2/users/me, refresh with the newest refresh token stored (treated as rotating).
// Reads (look-back after a crash, metrics) are paid: only with X_READS=1.
import type { PlatformContext } from '../context.ts';
import { requireApp } from '../context.ts';
import type { PlatformDefinition } from '../definition.ts';
import { scopesOf } from '../features.ts';
import { numberOf, obj, str, type Json } from '../json.ts';
import type { PlatformAdapter, PlatformProfile, TokenSet } from '../types.ts';
import { xComments } from './comments.ts';
import { xBody, xTokenBody } from './errors.ts';
import { xAccountInsights, xInsights } from './insights.ts';
import { xMedia } from './media-rules.ts';
import { xMentions } from './mentions.ts';
import { XData, XOptions } from './options.ts';
import { xPostEditor, xPostRemover } from './published.ts';
import { xPublisher } from './publish.ts';
import { validateX } from './validate.ts';

const API = 'https://api.x.com/2';

export const X_FEATURES: Record<string, string[]> = {
  // POST /2/tweets needs users.read too (x.md §3); uploads need media.write.
  publish: ['tweet.read', 'tweet.write', 'users.read', 'media.write'],
  // A refresh token is issued only with offline.access.
  refresh: ['offline.access'],
  hideReplies: ['tweet.moderate.write'],
  likes: ['like.read', 'like.write'],
};

export interface XSettings {
  /** X_READS=1: the operator pays for reads (look-back after a crash, replies, metrics). */
  reads: boolean;
  /** X_DAILY_POST_LIMIT: posts per account per 24 hours the service allows (0: unset). */
  dailyPostLimit: number;
}

function tokenSet(body: Json, now: number, previousRefresh: string | null): TokenSet {
  const expiresIn = numberOf(body.expires_in);
  return {
    accessToken: str(body.access_token) ?? '',
    // Rotation is not confirmed by X's docs: the newest refresh token is kept whenever one comes.
    refreshToken: str(body.refresh_token) ?? previousRefresh,
    expiresAt: expiresIn ? now + expiresIn * 1000 : null,
    scopes: (str(body.scope) ?? '').split(/\s+/).filter(Boolean),
  };
}

export function xAdapter(ctx: PlatformContext, settings: XSettings): PlatformAdapter<'x'> {
  const tokenCall = async (form: Record<string, string>, now: number, previousRefresh: string | null) => {
    const app = requireApp(ctx.apps, 'x');
    const basic = Buffer.from(`${encodeURIComponent(app.clientId)}:${encodeURIComponent(app.clientSecret)}`).toString('base64');
    const response = await ctx.http.send('x', { method: 'POST', url: `${API}/oauth2/token`, form, headers: { authorization: `Basic ${basic}` } });
    return tokenSet(xTokenBody(response), now, previousRefresh);
  };
  const profile = async (token: string): Promise<PlatformProfile> => {
    const me = obj(xBody(await ctx.http.send('x', { url: `${API}/users/me`, query: { 'user.fields': 'id,name,username,profile_image_url,verified' }, bearer: token })).data);
    return { platformUserId: str(me.id) ?? '', username: str(me.username), displayName: str(me.name), avatarUrl: str(me.profile_image_url), metadata: {} };
  };
  const comments = xComments(ctx.http, settings.reads);
  return {
    platform: 'x',
    connectors: [
      {
        flavour: 'x',
        pkce: true,
        authorizeUrl({ state, redirectUri, codeChallenge }) {
          const app = requireApp(ctx.apps, 'x');
          const url = new URL('https://x.com/i/oauth2/authorize');
          url.search = new URLSearchParams({
            response_type: 'code',
            client_id: app.clientId,
            redirect_uri: redirectUri,
            scope: scopesOf(X_FEATURES).join(' '),
            state,
            code_challenge: codeChallenge ?? '',
            code_challenge_method: 'S256',
          }).toString();
          return ctx.http.browserUrl(url.toString());
        },
        async complete({ code, redirectUri, now, codeVerifier }) {
          const token = await tokenCall({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: codeVerifier ?? '' }, now, null);
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
      features: () => X_FEATURES,
    },
    // X reports no remaining posts: with X_DAILY_POST_LIMIT the service counts them itself.
    ...(settings.dailyPostLimit > 0 ? { countedLimit: { allowed: settings.dailyPostLimit, windowHours: 24 } } : {}),
    publisher: xPublisher(ctx.http, ctx.media, { reads: settings.reads }),
    editor: xPostEditor(ctx.http),
    remover: xPostRemover(ctx.http),
    postInsights: xInsights(ctx.http, settings.reads),
    accountInsights: xAccountInsights(ctx.http, settings.reads),
    commentReader: comments.reader,
    commentWriter: comments.writer,
    commentHider: comments.hider,
    commentLiker: comments.liker,
    commentRemover: comments.remover,
    mentionReader: xMentions(ctx.http, settings.reads),
  };
}

declare module '../types.ts' {
  interface PlatformNames {
    x: true;
  }
}

/** Everything the service knows about x (listed in ../registry.ts). */
export const xPlatform: PlatformDefinition<'x', XSettings> = {
  name: 'x',
  displayName: 'X',
  apps: [{ name: 'x', idVar: 'X_CLIENT_ID', secretVar: 'X_CLIENT_SECRET', sandbox: { clientId: 'sandbox-x-client', clientSecret: 'sandbox-x-secret' } }],
  settings: (read) => ({ reads: read.flag('X_READS', false), dailyPostLimit: read.integer('X_DAILY_POST_LIMIT', 0, 0, 1_000_000) }),
  adapter: xAdapter,
  // No reply webhooks below the enterprise tier (x.md §11): replies are polled, which reads (X_READS=1).
  pollComments: true,
  // Mentions likewise, from GET /2/users/{id}/mentions (reads too).
  pollMentions: true,
  publishing: { data: XData, options: XOptions, validate: validateX, media: xMedia },
  // Weekdays 13–16 UTC (DESIGN "Analytics", best-time defaults).
  bestTime: [
    [0, 14, 100], [1, 14, 100], [2, 14, 100], [3, 14, 100], [4, 14, 96],
    [0, 13, 92], [1, 13, 92], [2, 13, 92], [3, 13, 92], [4, 13, 88],
    [0, 15, 90], [1, 15, 90], [2, 15, 90], [3, 15, 90], [4, 15, 86],
    [0, 16, 80], [1, 16, 80], [2, 16, 80], [3, 16, 80], [4, 16, 76],
  ],
};
