// Deleting a live x post (platforms/x.md §5): `DELETE /2/tweets/{id}`, answered {data:{deleted:true}};
// a post already gone answers 404 (`invalid`: nothing left to delete).
import { PlatformError } from '../errors.ts';
import type { PlatformHttp } from '../http.ts';
import { obj } from '../json.ts';
import type { PostRemover } from '../types.ts';
import { xBody } from './errors.ts';

export function xPostRemover(http: PlatformHttp): PostRemover {
  return {
    async unpublish(account, postId) {
      const body = xBody(await http.send('x', { method: 'DELETE', url: `https://api.x.com/2/tweets/${encodeURIComponent(postId)}`, bearer: account.accessToken }));
      if (obj(body.data).deleted !== true) throw new PlatformError('transient', 'X did not confirm the delete', { platform: 'x' });
    },
  };
}
