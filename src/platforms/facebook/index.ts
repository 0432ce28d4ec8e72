// facebook (Pages): Facebook Login (platforms.md §1.5), a long-lived user token, the Pages the
// person granted as choices (one account per Page, with its Page token, which never expires when
// derived from a long-lived user token), health from debug_token, and Page webhooks.
import type { PlatformContext } from '../context.ts';
import { requireApp } from '../context.ts';
import { PlatformError } from '../errors.ts';
import { debugToken, FACEBOOK_GRAPH, facebookUserToken, graph } from '../meta/graph.ts';
import { list, obj, str } from '../json.ts';
import { ensureAppSubscription, subscribeObject } from '../meta/subscriptions.ts';
import type { ConnectedAccount, ConnectOption, PlatformAdapter } from '../types.ts';
import { scopesOf } from '../features.ts';
import { facebookPublisher } from './publish.ts';
import { facebookComments } from './comments.ts';
import { facebookInsights } from './insights.ts';
import { facebookMessaging } from './messaging.ts';
import { facebookPostEditor, facebookPostRemover } from './published.ts';
import { marketingApi } from '../meta/marketing.ts';
import type { PlatformDefinition } from '../definition.ts';
import { FacebookData, FacebookOptions } from './options.ts';
import { validateFacebook } from './validate.ts';
import { facebookMedia } from './media-rules.ts';

export const FACEBOOK_FEATURES: Record<string, string[]> = {
  publish: ['pages_show_list', 'pages_manage_posts', 'pages_read_engagement'],
  // pages_read_user_content: without it Meta leaves people's comments out of the comments edge
  // (the Page's own stay), with no error (platforms.md §3).
  comments: ['pages_manage_engagement', 'pages_read_user_content'],
  messages: ['pages_messaging'],
  insights: ['read_insights'],
  webhooks: ['pages_manage_metadata'],
  ads: ['ads_management', 'ads_read', 'business_management'],
};

/** Page fields that come with the Page list and the Page's own token. */
const PAGE_FIELDS = 'id,name,category,tasks,access_token,picture';
/** Page webhook fields: the feed (comments, posts) and Messenger (platforms.md §8.3, §8.5). */
const PAGE_WEBHOOK_FIELDS = ['feed', 'messages', 'messaging_postbacks', 'message_reads', 'message_deliveries', 'message_reactions', 'message_echoes'];

interface PageRow {
  id: string;
  name: string;
  category: string | null;
  tasks: string[];
  accessToken: string | null;
  pictureUrl: string | null;
}

async function listPages(ctx: PlatformContext, userToken: string): Promise<PageRow[]> {
  const body = await graph(ctx, 'facebook', {
    url: `${FACEBOOK_GRAPH}/${ctx.graphVersion}/me/accounts`,
    query: { fields: PAGE_FIELDS, limit: 100, access_token: userToken },
  });
  return list(body.data).map((item) => {
    const page = obj(item);
    return {
      id: str(page.id) ?? '',
      name: str(page.name) ?? '',
      category: str(page.category),
      tasks: list(page.tasks).flatMap((t) => (typeof t === 'string' ? [t] : [])),
      accessToken: str(page.access_token),
      pictureUrl: str(obj(obj(page.picture).data).url),
    };
  });
}

export function facebookAdapter(ctx: PlatformContext): PlatformAdapter<'facebook'> {
  const comments = facebookComments(ctx.http);
  const insights = facebookInsights(ctx.http);
  return {
    platform: 'facebook',
    connectors: [
      {
        flavour: 'facebook',
        authorizeUrl({ state, redirectUri }) {
          const app = requireApp(ctx.apps, 'meta');
          const url = new URL(`https://www.facebook.com/${ctx.graphVersion}/dialog/oauth`);
          url.search = new URLSearchParams({ client_id: app.clientId, redirect_uri: redirectUri, state, scope: scopesOf(FACEBOOK_FEATURES).join(','), response_type: 'code' }).toString();
          return ctx.http.browserUrl(url.toString());
        },
        async complete({ code, redirectUri, now }) {
          const app = requireApp(ctx.apps, 'meta');
          const userToken = await facebookUserToken(ctx, app, 'facebook', code, redirectUri, now);
          const pages = await listPages(ctx, userToken.accessToken);
          const options: ConnectOption[] = pages.map((p) => ({ id: p.id, name: p.name, kind: 'page', pictureUrl: p.pictureUrl }));
          return { kind: 'choices', userToken, options };
        },
      },
    ],
    choices: {
      async resolve({ userToken, optionIds }) {
        const app = requireApp(ctx.apps, 'meta');
        const { scopes, expiresAt } = await debugToken(ctx, app, 'facebook', userToken);
        const pages = await listPages(ctx, userToken);
        return optionIds.map((id): ConnectedAccount => {
          const page = pages.find((p) => p.id === id);
          if (!page?.accessToken) throw new PlatformError('permission', `the Page ${id} is no longer granted to the app`, { platform: 'facebook' });
          return {
            profile: { platformUserId: page.id, username: null, displayName: page.name, avatarUrl: page.pictureUrl, metadata: { login: 'facebook', category: page.category, tasks: page.tasks } },
            token: { accessToken: page.accessToken, refreshToken: null, expiresAt: null, scopes },
            // Kept for ads: the Marketing API acts as the person, not as the Page.
            userToken: { accessToken: userToken, refreshToken: null, expiresAt, scopes },
          };
        });
      },
    },
    health: {
      inspect: (credentials) => debugToken(ctx, requireApp(ctx.apps, 'meta'), 'facebook', credentials.accessToken),
      features: () => FACEBOOK_FEATURES,
    },
    webhooks: {
      async subscribe(credentials, callback) {
        const app = requireApp(ctx.apps, 'meta');
        const appSubscriptionUpdated = await ensureAppSubscription(ctx, 'facebook', app, 'page', PAGE_WEBHOOK_FIELDS, callback);
        await subscribeObject(ctx, 'facebook', FACEBOOK_GRAPH, credentials.platformUserId, credentials.accessToken, PAGE_WEBHOOK_FIELDS);
        return { fields: PAGE_WEBHOOK_FIELDS, appSubscriptionUpdated };
      },
    },
    publisher: facebookPublisher(ctx.http),
    editor: facebookPostEditor(ctx.http),
    remover: facebookPostRemover(ctx.http),
    commentReader: comments.reader,
    commentWriter: comments.writer,
    commentHider: comments.hider,
    commentLiker: comments.liker,
    commentRemover: comments.remover,
    postInsights: insights.post,
    accountInsights: insights.account,
    demographics: insights.demographics,
    messaging: facebookMessaging(ctx.http, FACEBOOK_FEATURES.messages ?? []),
    ads: marketingApi(ctx),
  };
}

declare module '../types.ts' {
  interface PlatformNames {
    facebook: true;
  }
}

/** Everything the service knows about facebook (listed in ../registry.ts). */
export const facebookPlatform: PlatformDefinition<'facebook'> = {
  name: 'facebook',
  displayName: 'Facebook',
  // The Meta app: facebook, instagram with Facebook Login, WhatsApp and ads connect through it.
  apps: [{ name: 'meta', idVar: 'META_APP_ID', secretVar: 'META_APP_SECRET', sandbox: { clientId: '100000000000001', clientSecret: 'sandbox-meta-secret' } }],
  adapter: facebookAdapter,
  publishing: { data: FacebookData, options: FacebookOptions, validate: validateFacebook, media: facebookMedia },
};
