// Comments on a live Instagram post (platforms.md §2.5): `POST /{ig-media-id}?comment_enabled=`
// on the account's host. Instagram media cannot be edited or deleted through the API.
import type { PlatformHttp } from '../http.ts';
import { graphCaller } from '../meta/publish-steps.ts';
import type { CommentsSwitch } from '../types.ts';
import { instagramHost } from './publish.ts';

export function instagramCommentsSwitch(http: PlatformHttp): CommentsSwitch {
  return {
    async setComments(account, mediaId, enabled) {
      await graphCaller(http, 'instagram', instagramHost(account.metadata), account.accessToken)('POST', `/${mediaId}`, { comment_enabled: String(enabled) });
    },
  };
}
