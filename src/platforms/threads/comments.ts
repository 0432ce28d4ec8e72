// Threads replies (platforms.md §4.5): the top-level replies of a post (`/{media}/replies`,
// oldest first with `reverse=false`, cursor paging), each followed by the replies under it, read
// the same way one level at a time; a reply is a TEXT container with `reply_to_id`, published
// with `threads_publish` (§4.2–4.3, as publish.ts does; a text container is ready at once);
// hide/unhide is `POST /{reply}/manage_reply?hide=`. Threads has no likes or deletes of others'
// replies through the API.
import { PlatformError } from '../errors.ts';
import type { PlatformHttp } from '../http.ts';
import { graphTimeMs, list, obj, str, text, type Json } from '../json.ts';
import { graphBody } from '../meta/errors.ts';
import { nextCursor } from '../meta/comment-paging.ts';
import type { AccountCredentials, CommentHider, CommentReader, CommentWriter, PlatformComment } from '../types.ts';

const GRAPH = 'https://graph.threads.net/v1.0';
const REPLY_FIELDS = 'id,text,username,timestamp,hide_status,has_replies,replied_to,is_reply_owned_by_me';
/** Replies read under one reply, and how many reply levels are followed below the top level. */
const NESTED_LIMIT = 100;
const MAX_DEPTH = 5;

type Params = Record<string, string | number | undefined>;

function caller(http: PlatformHttp, account: AccountCredentials) {
  return async (method: 'GET' | 'POST', path: string, params: Params = {}): Promise<Json> => {
    const data = method === 'POST' ? { form: params } : { query: params };
    return graphBody('threads', await http.send('threads', { method, url: `${GRAPH}${path}`, bearer: account.accessToken, ...data }));
  };
}

function toComment(postId: string, row: Json): PlatformComment {
  const parent = str(obj(row.replied_to).id);
  return {
    id: text(row.id),
    platform: 'threads',
    platformPostId: postId,
    text: text(row.text),
    username: str(row.username),
    parentId: parent === postId ? null : parent,
    createdAt: graphTimeMs(row.timestamp),
    hidden: row.hide_status === 'HIDDEN',
    // Like counts of a reply are an insight (threads_manage_insights), not a media field.
    likeCount: 0,
    isOwn: row.is_reply_owned_by_me === true,
  };
}

export function threadsComments(http: PlatformHttp): { reader: CommentReader; writer: CommentWriter; hider: CommentHider } {
  const publishReply = async (account: AccountCredentials, replyToId: string, message: string) => {
    const call = caller(http, account);
    const user = account.platformUserId;
    const container = text((await call('POST', `/${user}/threads`, { media_type: 'TEXT', text: message, reply_to_id: replyToId })).id);
    const status = await call('GET', `/${container}`, { fields: 'id,status,error_message' });
    if (status.status !== 'FINISHED') {
      // A text container is ready at once; anything else is left unpublished rather than waited for.
      throw new PlatformError('transient', `Threads did not accept the reply (container ${text(status.status) || 'unknown'})`, { platform: 'threads' });
    }
    return { id: text((await call('POST', `/${user}/threads_publish`, { creation_id: container })).id) };
  };
  return {
    reader: {
      async list(account, postId, page) {
        const call = caller(http, account);
        const body = await call('GET', `/${postId}/replies`, { fields: REPLY_FIELDS, reverse: 'false', limit: page.limit, after: page.after ?? undefined });
        const comments: PlatformComment[] = [];
        const walk = async (row: Json, depth: number): Promise<void> => {
          comments.push(toComment(postId, row));
          if (row.has_replies !== true || depth >= MAX_DEPTH) return;
          const nested = await call('GET', `/${text(row.id)}/replies`, { fields: REPLY_FIELDS, reverse: 'false', limit: NESTED_LIMIT });
          for (const child of list(nested.data)) await walk(obj(child), depth + 1);
        };
        for (const item of list(body.data)) await walk(obj(item), 0);
        return { comments, after: nextCursor(body) };
      },
    },
    writer: {
      reply: (account, commentId, message) => publishReply(account, commentId, message),
      // A top-level comment on a Threads post is a reply to the post itself.
      comment: (account, postId, message) => publishReply(account, postId, message),
    },
    hider: {
      async setHidden(account, replyId, hidden) {
        const body = await caller(http, account)('POST', `/${replyId}/manage_reply`, { hide: String(hidden) });
        if (body.success !== true) throw new PlatformError('transient', 'unexpected answer to manage_reply', { platform: 'threads' });
      },
    },
  };
}
