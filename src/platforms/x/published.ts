// A live x post (platforms/x.md §5, §8): deleting it, `DELETE /2/tweets/{id}` answered
// {data:{deleted:true}} (a post already gone answers 404: `invalid`), every post of a thread
// (items and first comment, their ids read from the publisher's progress) before the first; editing it, `POST /2/tweets`
// with edit_options.previous_post_id, within 30 minutes and 5 times, never a poll (X refuses,
// and says why) — each edit is a new post whose id the target takes.
import { PlatformError } from '../errors.ts';
import type { PlatformHttp } from '../http.ts';
import { obj, str } from '../json.ts';
import type { PostEditor, PostRemover, PublishProgress } from '../types.ts';
import { xBody } from './errors.ts';
import { weightedLength, X_TEXT_MAX } from './weighted-length.ts';

/** The other posts of a published chain (thread items, the first comment), newest first, from the publisher's progress. */
function chainIds(progress: PublishProgress | undefined, rootId: string): string[] {
  const units = Array.isArray(progress?.units) ? (progress.units as unknown[]) : [];
  return units.map((u) => str(obj(u).postId)).filter((id): id is string => id !== null && id !== rootId).reverse();
}

export function xPostRemover(http: PlatformHttp): PostRemover {
  const remove = async (token: string, id: string) => xBody(await http.send('x', { method: 'DELETE', url: `https://api.x.com/2/tweets/${encodeURIComponent(id)}`, bearer: token }));
  return {
    async unpublish(account, postId, progress) {
      // The replies first (deleting the first post leaves them standing); one already gone is fine.
      for (const id of chainIds(progress, postId)) {
        try {
          await remove(account.accessToken, id);
        } catch (error) {
          if (!(error instanceof PlatformError && error.details.code === 'resource-not-found')) throw error;
        }
      }
      const body = await remove(account.accessToken, postId);
      if (obj(body.data).deleted !== true) throw new PlatformError('transient', 'X did not confirm the delete', { platform: 'x' });
    },
  };
}

export function xPostEditor(http: PlatformHttp): PostEditor {
  return {
    async edit(account, postId, content) {
      const length = weightedLength(content);
      if (length > X_TEXT_MAX) throw new PlatformError('invalid', `content: ${length} weighted characters, X allows ${X_TEXT_MAX}`, { platform: 'x' });
      const body = xBody(await http.send('x', { method: 'POST', url: 'https://api.x.com/2/tweets', bearer: account.accessToken, json: { text: content, edit_options: { previous_post_id: postId } } }));
      const id = str(obj(body.data).id);
      if (!id) throw new PlatformError('transient', 'X answered the edit without an id', { platform: 'x' });
      return { platformPostId: id };
    },
  };
}
