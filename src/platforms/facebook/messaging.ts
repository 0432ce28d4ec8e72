// Messenger for a Page (platforms.md §3.3–3.4) with the Page token on graph.facebook.com. People
// are PSIDs with a name and no username.
import type { PlatformHttp } from '../http.ts';
import { FACEBOOK_GRAPH } from '../meta/graph.ts';
import { metaMessaging } from '../meta/messaging.ts';
import type { Messaging } from '../messaging-types.ts';

export function facebookMessaging(http: PlatformHttp, permissions: string[]): Messaging {
  return metaMessaging(http, {
    platform: 'facebook',
    host: () => FACEBOOK_GRAPH,
    inboxId: (account) => account.platformUserId,
    listPlatform: 'messenger',
    profileFields: 'name',
    permissions: () => permissions,
  });
}
