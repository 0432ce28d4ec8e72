// Page comments (platforms.md §3.2) with the Page token: top-level comments of a post, oldest
// first, each with its replies (the `comments` field of a comment); a reply or a comment is
// `POST /{object}/comments`; hide is `POST /{comment}` with `is_hidden`; like as the Page is
// `POST`/`DELETE /{comment}/likes`; delete is `DELETE /{comment}`. A commenter is named by
// `from.name` (Pages see no usernames).
import type { PlatformHttp } from '../http.ts';
import { graphTimeMs, list, numberOf, obj, str, text, type Json } from '../json.ts';
import { FACEBOOK_GRAPH } from '../meta/graph.ts';
import { nextCursor } from '../meta/comment-paging.ts';
import { graphCaller } from '../meta/publish-steps.ts';
import type { AccountCredentials, CommentHider, CommentLiker, CommentReader, CommentRemover, CommentWriter, PlatformComment } from '../types.ts';

const COMMENT_FIELDS = 'id,message,created_time,from,like_count,is_hidden';
/** The permission without which people's comments are left out of every list. */
const PEOPLES_COMMENTS = 'pages_read_user_content';
/** Replies read with their parent; more than this under one comment are left to the Page's own tools. */
const REPLIES_PER_COMMENT = 100;

const call = (http: PlatformHttp, account: AccountCredentials) => graphCaller(http, 'facebook', FACEBOOK_GRAPH, account.accessToken);

function toComment(account: AccountCredentials, postId: string, row: Json, parentId: string | null): PlatformComment {
  const from = obj(row.from);
  return {
    id: text(row.id),
    platform: 'facebook',
    platformPostId: postId,
    text: text(row.message),
    username: str(from.name),
    parentId,
    createdAt: graphTimeMs(row.created_time),
    hidden: row.is_hidden === true,
    likeCount: numberOf(row.like_count) ?? 0,
    isOwn: str(from.id) === account.platformUserId,
  };
}

export function facebookComments(http: PlatformHttp): { reader: CommentReader; writer: CommentWriter; hider: CommentHider; liker: CommentLiker; remover: CommentRemover } {
  return {
    reader: {
      async list(account, postId, page) {
        const body = await call(http, account)('GET', `/${postId}/comments`, {
          filter: 'toplevel',
          order: 'chronological',
          fields: `${COMMENT_FIELDS},comments.limit(${REPLIES_PER_COMMENT}){${COMMENT_FIELDS}}`,
          limit: page.limit,
          after: page.after ?? undefined,
        });
        const comments = list(body.data).flatMap((item) => {
          const row = obj(item);
          const top = toComment(account, postId, row, null);
          return [top, ...list(obj(row.comments).data).map((r) => toComment(account, postId, obj(r), top.id))];
        });
        // Meta answers without people's comments, and without an error, when the token lacks
        // pages_read_user_content (platforms.md §3): the account's own are all there is.
        const withheld = account.scopes.includes(PEOPLES_COMMENTS) ? [] : [{ permission: PEOPLES_COMMENTS, what: "people's comments" }];
        return { comments, after: nextCursor(body), ...(withheld.length ? { withheld } : {}) };
      },
    },
    writer: {
      async reply(account, commentId, message) {
        return { id: text((await call(http, account)('POST', `/${commentId}/comments`, { message })).id) };
      },
      async comment(account, postId, message) {
        return { id: text((await call(http, account)('POST', `/${postId}/comments`, { message })).id) };
      },
    },
    hider: {
      async setHidden(account, commentId, hidden) {
        await call(http, account)('POST', `/${commentId}`, { is_hidden: String(hidden) });
      },
    },
    liker: {
      async setLiked(account, commentId, liked) {
        await call(http, account)(liked ? 'POST' : 'DELETE', `/${commentId}/likes`);
      },
    },
    remover: {
      async remove(account, commentId) {
        await call(http, account)('DELETE', `/${commentId}`);
      },
    },
  };
}
