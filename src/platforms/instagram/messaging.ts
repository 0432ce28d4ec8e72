// Instagram Direct (platforms.md §2.8) for both logins: Facebook Login accounts send and list
// through their linked Page on graph.facebook.com with the Page token; Instagram Login accounts
// through themselves on graph.instagram.com. People are IGSIDs with a username and a name.
import type { PlatformHttp } from '../http.ts';
import { metaMessaging } from '../meta/messaging.ts';
import type { Messaging } from '../messaging-types.ts';
import { metaString } from '../types.ts';
import { INSTAGRAM_FACEBOOK_FEATURES } from './facebook-login.ts';
import { INSTAGRAM_LOGIN_FEATURES } from './instagram-login.ts';
import { instagramHost } from './publish.ts';

export function instagramMessaging(http: PlatformHttp): Messaging {
  const viaFacebook = (metadata: Record<string, unknown>) => metadata.login === 'facebook';
  return metaMessaging(http, {
    platform: 'instagram',
    host: (account) => instagramHost(account.metadata),
    inboxId: (account) => (viaFacebook(account.metadata) ? metaString(account.metadata, 'pageId') : account.platformUserId),
    listPlatform: 'instagram',
    profileFields: 'name,username',
    permissions: (account) => (viaFacebook(account.metadata) ? INSTAGRAM_FACEBOOK_FEATURES : INSTAGRAM_LOGIN_FEATURES).messages ?? [],
  });
}
