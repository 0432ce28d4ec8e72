// Instagram comments (platforms.md §2.6–2.7) on the account's host (graph.facebook.com with the
// Page token for Facebook Login, graph.instagram.com for Instagram Login): top-level comments
// newest first, at most 50 a page, each with its `replies`; reply (`/{comment}/replies`, on a
// top-level comment only: a reply's parent is read from its `parent_id`), comment
// on own media, hide/unhide (`hide=`), delete; the media the account is tagged in (`/tags`), and
// the comment or caption a `mentions` webhook points at.
import type { PlatformHttp } from '../http.ts';
import { graphTimeMs, list, numberOf, obj, str, text, type Json } from '../json.ts';
import { nextCursor } from '../meta/comment-paging.ts';
import { graphCaller } from '../meta/publish-steps.ts';
import type { AccountCredentials, CommentHider, CommentReader, CommentRemover, CommentThreads, CommentWriter, MentionReader, PlatformComment } from '../types.ts';
import { instagramHost } from './publish.ts';

const COMMENT_FIELDS = 'id,text,timestamp,username,from{id,username},like_count,hidden';
/** Instagram's page size for comments (§2.6). */
const MAX_PAGE = 50;

const call = (http: PlatformHttp, account: AccountCredentials) => graphCaller(http, 'instagram', instagramHost(account.metadata), account.accessToken);

function toComment(account: AccountCredentials, mediaId: string, row: Json, parentId: string | null): PlatformComment {
  const from = obj(row.from);
  return {
    id: text(row.id),
    platform: 'instagram',
    platformPostId: mediaId,
    text: text(row.text),
    username: str(row.username) ?? str(from.username),
    parentId,
    createdAt: graphTimeMs(row.timestamp),
    hidden: row.hidden === true,
    likeCount: numberOf(row.like_count) ?? 0,
    isOwn: str(from.id) === account.platformUserId,
  };
}

export function instagramComments(http: PlatformHttp): { reader: CommentReader; writer: CommentWriter; threads: CommentThreads; hider: CommentHider; remover: CommentRemover; mentions: MentionReader } {
  return {
    reader: {
      async list(account, mediaId, page) {
        const body = await call(http, account)('GET', `/${mediaId}/comments`, {
          fields: `${COMMENT_FIELDS},replies{${COMMENT_FIELDS}}`,
          limit: Math.min(page.limit, MAX_PAGE),
          after: page.after ?? undefined,
        });
        const comments = list(body.data).flatMap((item) => {
          const row = obj(item);
          const top = toComment(account, mediaId, row, null);
          // Replies come oldest first after their parent, whatever order the platform sent them in.
          const replies = list(obj(row.replies).data).map((r) => toComment(account, mediaId, obj(r), top.id));
          replies.sort((a, b) => (a.createdAt ?? 0) - (b.createdAt ?? 0));
          return [top, ...replies];
        });
        return { comments, after: nextCursor(body) };
      },
    },
    writer: {
      async reply(account, commentId, message) {
        return { id: text((await call(http, account)('POST', `/${commentId}/replies`, { message })).id) };
      },
      async comment(account, mediaId, message) {
        return { id: text((await call(http, account)('POST', `/${mediaId}/comments`, { message })).id) };
      },
    },
    // One level of replies (§2.6): a reply's node names its top-level comment in parent_id.
    threads: {
      async parentOf(account, commentId) {
        return str((await call(http, account)('GET', `/${commentId}`, { fields: 'id,parent_id' })).parent_id);
      },
    },
    hider: {
      async setHidden(account, commentId, hidden) {
        await call(http, account)('POST', `/${commentId}`, { hide: String(hidden) });
      },
    },
    remover: {
      async remove(account, commentId) {
        await call(http, account)('DELETE', `/${commentId}`);
      },
    },
    mentions: {
      async mentions(account, limit) {
        const body = await call(http, account)('GET', `/${account.platformUserId}/tags`, { fields: 'id,caption,media_type,permalink,username,timestamp', limit });
        return list(body.data).map((item) => {
          const row = obj(item);
          return {
            mediaId: text(row.id),
            platform: 'instagram' as const,
            caption: str(row.caption),
            mediaType: str(row.media_type),
            permalink: str(row.permalink),
            username: str(row.username),
            createdAt: graphTimeMs(row.timestamp),
          };
        });
      },
      // §2.7: the account node's mentioned_comment / mentioned_media fields, keyed by the webhook's ids.
      async mentioned(account, { mediaId, commentId }) {
        const fields = commentId ? `mentioned_comment.comment_id(${commentId}){text,username}` : `mentioned_media.media_id(${mediaId}){caption,username}`;
        const body = await call(http, account)('GET', `/${account.platformUserId}`, { fields });
        const node = obj(commentId ? body.mentioned_comment : body.mentioned_media);
        return { text: text(commentId ? node.text : node.caption), username: str(node.username) };
      },
    },
  };
}
