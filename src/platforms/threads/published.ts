// Deleting a live Threads post: `DELETE /{threads-media-id}` (needs threads_delete; at most 100
// deletes per 24 hours, platforms.md §4.4–4.5), answered {success:true}.
import { PlatformError } from '../errors.ts';
import type { PlatformHttp } from '../http.ts';
import type { PostRemover } from '../types.ts';
import { graphBody } from '../meta/errors.ts';

export function threadsPostRemover(http: PlatformHttp): PostRemover {
  return {
    async unpublish(account, mediaId) {
      const res = await http.send('threads', { method: 'DELETE', url: `https://graph.threads.net/v1.0/${mediaId}`, bearer: account.accessToken });
      if (graphBody('threads', res).success !== true) {
        throw new PlatformError('transient', `unexpected answer to the delete (HTTP ${res.status})`, { platform: 'threads' });
      }
    },
  };
}
