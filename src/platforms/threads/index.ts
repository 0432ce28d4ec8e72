// threads (platforms.md §4.1, §4.4): authorize on threads.net, the code exchange and 60-day token
// on graph.threads.net (`user_id` is a bare int64 there, so the id comes from /me, §12), refresh,
// and the publishing quota. Threads has no debug_token: a profile read proves the token.
import type { PlatformContext } from '../context.ts';
import { requireApp } from '../context.ts';
import { graph, tokenFrom } from '../meta/graph.ts';
import { str } from '../json.ts';
import { limitFrom } from '../instagram/instagram-login.ts';
import type { PlatformAdapter, PlatformProfile } from '../types.ts';
import { scopesOf } from '../features.ts';
import { threadsPublisher } from './publish.ts';
import { threadsComments } from './comments.ts';
import { threadsInsights } from './insights.ts';
import { threadsPostRemover } from './published.ts';
import type { PlatformDefinition } from '../definition.ts';
import { ThreadsData, ThreadsOptions } from './options.ts';
import { validateThreads } from './validate.ts';
import { threadsMedia } from './media-rules.ts';

const THREADS_GRAPH = 'https://graph.threads.net';
const THREADS_VERSION = 'v1.0';

export const THREADS_FEATURES: Record<string, string[]> = {
  publish: ['threads_basic', 'threads_content_publish'],
  replies: ['threads_read_replies', 'threads_manage_replies'],
  // The `mentions` webhook (set in the App Dashboard) needs it; replies need threads_read_replies.
  mentions: ['threads_manage_mentions'],
  insights: ['threads_manage_insights'],
  delete: ['threads_delete'],
};

async function profile(ctx: PlatformContext, token: string): Promise<PlatformProfile> {
  const me = await graph(ctx, 'threads', {
    url: `${THREADS_GRAPH}/${THREADS_VERSION}/me`,
    query: { fields: 'id,username,name,threads_profile_picture_url', access_token: token },
  });
  return { platformUserId: str(me.id) ?? '', username: str(me.username), displayName: str(me.name), avatarUrl: str(me.threads_profile_picture_url), metadata: {} };
}

export function threadsAdapter(ctx: PlatformContext): PlatformAdapter<'threads'> {
  const comments = threadsComments(ctx.http);
  const insights = threadsInsights(ctx.http);
  return {
    platform: 'threads',
    connectors: [
      {
        flavour: 'threads',
        authorizeUrl({ state, redirectUri }) {
          const app = requireApp(ctx.apps, 'threads');
          const url = new URL('https://threads.net/oauth/authorize');
          url.search = new URLSearchParams({ client_id: app.clientId, redirect_uri: redirectUri, scope: scopesOf(THREADS_FEATURES).join(','), response_type: 'code', state }).toString();
          return ctx.http.browserUrl(url.toString());
        },
        async complete({ code, redirectUri, now }) {
          const app = requireApp(ctx.apps, 'threads');
          const short = await graph(ctx, 'threads', {
            method: 'POST',
            url: `${THREADS_GRAPH}/oauth/access_token`,
            form: { client_id: app.clientId, client_secret: app.clientSecret, code, grant_type: 'authorization_code', redirect_uri: redirectUri },
          });
          const long = await graph(ctx, 'threads', {
            url: `${THREADS_GRAPH}/access_token`,
            query: { grant_type: 'th_exchange_token', client_secret: app.clientSecret, access_token: str(short.access_token) ?? '' },
          });
          // The code exchange does not list permissions; those asked are granted unless the
          // person unticked some, which the first permission-checked call reveals.
          const token = tokenFrom(long, now, scopesOf(THREADS_FEATURES));
          return { kind: 'account', account: { profile: await profile(ctx, token.accessToken), token } };
        },
      },
    ],
    refresher: {
      async refresh(credentials, now) {
        const body = await graph(ctx, 'threads', {
          url: `${THREADS_GRAPH}/refresh_access_token`,
          query: { grant_type: 'th_refresh_token', access_token: credentials.accessToken },
        });
        return tokenFrom(body, now, credentials.scopes);
      },
    },
    health: {
      async inspect(credentials) {
        await profile(ctx, credentials.accessToken);
        return { valid: true, expiresAt: credentials.expiresAt, scopes: credentials.scopes };
      },
      features: () => THREADS_FEATURES,
    },
    limits: {
      async publishingLimit(credentials) {
        const body = await graph(ctx, 'threads', {
          url: `${THREADS_GRAPH}/${THREADS_VERSION}/${credentials.platformUserId}/threads_publishing_limit`,
          query: { fields: 'quota_usage,config', access_token: credentials.accessToken },
        });
        return limitFrom(body);
      },
    },
    publisher: threadsPublisher(ctx.http),
    remover: threadsPostRemover(ctx.http),
    commentReader: comments.reader,
    commentWriter: comments.writer,
    commentHider: comments.hider,
    postInsights: insights.post,
    accountInsights: insights.account,
    demographics: insights.demographics,
  };
}

declare module '../types.ts' {
  interface PlatformNames {
    threads: true;
  }
}

/** Everything the service knows about threads (listed in ../registry.ts). */
export const threadsPlatform: PlatformDefinition<'threads'> = {
  name: 'threads',
  displayName: 'Threads',
  apps: [{ name: 'threads', idVar: 'THREADS_APP_ID', secretVar: 'THREADS_APP_SECRET', sandbox: { clientId: '100000000000003', clientSecret: 'sandbox-threads-secret' } }],
  adapter: threadsAdapter,
  publishing: { data: ThreadsData, options: ThreadsOptions, validate: validateThreads, media: threadsMedia },
};
