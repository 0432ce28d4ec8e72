// instagram: two login flavours (platforms.md §2.1). The account's metadata `login` says which
// one it was connected with, and so which host, app and token calls apply to it.
import type { PlatformContext } from '../context.ts';
import { hasApp, requireApp } from '../context.ts';
import { debugToken, FACEBOOK_GRAPH, graph } from '../meta/graph.ts';
import { ensureAppSubscription, subscribeObject } from '../meta/subscriptions.ts';
import { metaString, type AccountCredentials, type PlatformAdapter } from '../types.ts';
import { INSTAGRAM_FACEBOOK_FEATURES, instagramFacebookChoices, instagramFacebookConnector } from './facebook-login.ts';
import { instagramPublisher } from './publish.ts';
import { instagramComments } from './comments.ts';
import { instagramInsights } from './insights.ts';
import { instagramMessaging } from './messaging.ts';
import { instagramCommentsSwitch } from './published.ts';
import { INSTAGRAM_GRAPH, INSTAGRAM_LOGIN_FEATURES, instagramLoginConnector, instagramProfile, limitFrom, refreshInstagramLogin } from './instagram-login.ts';
import type { PlatformDefinition } from '../definition.ts';
import { InstagramData, InstagramOptions } from './options.ts';
import { validateInstagram } from './validate.ts';
import { instagramMedia } from './media-rules.ts';

/** Instagram webhook fields (§2.9): comments, mentions and messaging. */
const INSTAGRAM_WEBHOOK_FIELDS = ['comments', 'mentions', 'messages', 'messaging_postbacks', 'messaging_seen', 'message_reactions'];

const viaFacebook = (c: AccountCredentials) => c.metadata.login === 'facebook';

export function instagramAdapter(ctx: PlatformContext): PlatformAdapter<'instagram'> {
  const comments = instagramComments(ctx.http);
  const insights = instagramInsights(ctx.http);
  return {
    platform: 'instagram',
    // Instagram Login first (its own app) unless only the Meta app is configured.
    connectors: hasApp(ctx.apps, 'instagram') || !hasApp(ctx.apps, 'meta')
      ? [instagramLoginConnector(ctx), instagramFacebookConnector(ctx)]
      : [instagramFacebookConnector(ctx), instagramLoginConnector(ctx)],
    choices: instagramFacebookChoices(ctx),
    refresher: {
      // Only Instagram Login tokens refresh; Facebook Login accounts hold a Page token that does not expire.
      refresh: (credentials, now) => refreshInstagramLogin(ctx, credentials, now),
    },
    health: {
      async inspect(credentials) {
        if (viaFacebook(credentials)) return debugToken(ctx, requireApp(ctx.apps, 'meta'), 'instagram', credentials.accessToken);
        // Instagram Login has no debug_token: a profile read proves the token, and the
        // permissions are those granted at the code exchange.
        await instagramProfile(ctx, credentials.accessToken);
        return { valid: true, expiresAt: credentials.expiresAt, scopes: credentials.scopes };
      },
      features: (credentials) => (viaFacebook(credentials) ? INSTAGRAM_FACEBOOK_FEATURES : INSTAGRAM_LOGIN_FEATURES),
    },
    limits: {
      async publishingLimit(credentials) {
        const host = viaFacebook(credentials) ? FACEBOOK_GRAPH : INSTAGRAM_GRAPH;
        const body = await graph(ctx, 'instagram', {
          url: `${host}/${ctx.graphVersion}/${credentials.platformUserId}/content_publishing_limit`,
          query: { fields: 'quota_usage,config', access_token: credentials.accessToken },
        });
        return limitFrom(body);
      },
    },
    webhooks: {
      async subscribe(credentials, callback) {
        if (viaFacebook(credentials)) {
          // Facebook Login: the app subscribes to `instagram`, and the linked Page subscribes the app.
          const updated = await ensureAppSubscription(ctx, 'instagram', requireApp(ctx.apps, 'meta'), 'instagram', INSTAGRAM_WEBHOOK_FIELDS, callback);
          await subscribeObject(ctx, 'instagram', FACEBOOK_GRAPH, metaString(credentials.metadata, 'pageId'), credentials.accessToken, ['feed']);
          return { fields: INSTAGRAM_WEBHOOK_FIELDS, appSubscriptionUpdated: updated };
        }
        const updated = await ensureAppSubscription(ctx, 'instagram', requireApp(ctx.apps, 'instagram'), 'instagram', INSTAGRAM_WEBHOOK_FIELDS, callback);
        await subscribeObject(ctx, 'instagram', INSTAGRAM_GRAPH, credentials.platformUserId, credentials.accessToken, INSTAGRAM_WEBHOOK_FIELDS);
        return { fields: INSTAGRAM_WEBHOOK_FIELDS, appSubscriptionUpdated: updated };
      },
    },
    publisher: instagramPublisher(ctx.http),
    commentsSwitch: instagramCommentsSwitch(ctx.http),
    commentReader: comments.reader,
    commentWriter: comments.writer,
    commentThreads: comments.threads,
    commentHider: comments.hider,
    commentRemover: comments.remover,
    mentionReader: comments.mentions,
    postInsights: insights.post,
    accountInsights: insights.account,
    demographics: insights.demographics,
    onlineFollowers: insights.online,
    messaging: instagramMessaging(ctx.http),
  };
}

declare module '../types.ts' {
  interface PlatformNames {
    instagram: true;
  }
}

/** Everything the service knows about instagram (listed in ../registry.ts). */
export const instagramPlatform: PlatformDefinition<'instagram'> = {
  name: 'instagram',
  displayName: 'Instagram',
  // Instagram Login; Facebook Login uses the Meta app (facebook's).
  apps: [{ name: 'instagram', idVar: 'INSTAGRAM_APP_ID', secretVar: 'INSTAGRAM_APP_SECRET', sandbox: { clientId: '100000000000002', clientSecret: 'sandbox-instagram-secret' } }],
  adapter: instagramAdapter,
  publishing: { data: InstagramData, options: InstagramOptions, validate: validateInstagram, media: instagramMedia },
};
