// x replies as comments (DESIGN "Comments and inbox", the x row; platforms/x.md §5): listed from
// GET /2/tweets/search/recent `conversation_id:{id}` (the last 7 days; a paid read, so only with
// X_READS=1 — without it the list is refused before any call, naming the setting), answered with
// POST /2/tweets replies, hidden with PUT /2/tweets/{id}/hidden, liked through /2/users/{id}/likes,
// and the account's own replies deleted.
import { PlatformError } from '../errors.ts';
import type { PlatformHttp } from '../http.ts';
import { list, numberOf, obj, str, text, type Json } from '../json.ts';
import type { CommentHider, CommentLiker, CommentReader, CommentRemover, CommentWriter, PlatformComment } from '../types.ts';
import { xBody } from './errors.ts';
import { readXText } from './read-text.ts';

const API = 'https://api.x.com/2';

/** Top-level replies newest first, each followed by the replies under it. */
function threaded(items: PlatformComment[]): PlatformComment[] {
  const children = new Map<string | null, PlatformComment[]>();
  for (const c of items) children.set(c.parentId, [...(children.get(c.parentId) ?? []), c]);
  const out: PlatformComment[] = [];
  const walk = (parent: string | null) => {
    for (const c of children.get(parent) ?? []) {
      out.push(c);
      walk(c.id);
    }
  };
  walk(null);
  // Replies whose parent is not on this page come last, in the platform's order.
  for (const c of items) if (!out.includes(c)) out.push(c);
  return out;
}

export function xComments(http: PlatformHttp, reads: boolean): { reader: CommentReader; writer: CommentWriter; hider: CommentHider; liker: CommentLiker; remover: CommentRemover } {
  const post = async (token: string, json: Json) => {
    const id = str(obj(xBody(await http.send('x', { method: 'POST', url: `${API}/tweets`, bearer: token, json })).data).id);
    if (!id) throw new PlatformError('transient', 'X answered the reply without an id', { platform: 'x' });
    return { id };
  };
  return {
    reader: {
      async list(account, postId, page) {
        if (!reads) throw new PlatformError('not_supported', 'X replies are paid reads: set X_READS=1 to list them', { platform: 'x' });
        const query = {
          query: `conversation_id:${postId}`,
          max_results: Math.min(100, Math.max(10, page.limit)),
          'tweet.fields': 'author_id,created_at,in_reply_to_user_id,referenced_tweets,public_metrics',
          expansions: 'author_id',
          ...(page.after ? { next_token: page.after } : {}),
        };
        const body = xBody(await http.send('x', { url: `${API}/tweets/search/recent`, query, bearer: account.accessToken }));
        const users = new Map(list(obj(body.includes).users).map(obj).map((u) => [text(u.id), str(u.username)]));
        const comments = list(body.data).map(obj).map((item): PlatformComment => {
          const repliedTo = list(item.referenced_tweets).map(obj).find((r) => r.type === 'replied_to');
          const parent = str(repliedTo?.id);
          const created = Date.parse(text(item.created_at));
          return {
            id: text(item.id),
            platform: 'x',
            platformPostId: postId,
            text: readXText(text(item.text)),
            username: users.get(text(item.author_id)) ?? null,
            parentId: parent === postId ? null : parent,
            createdAt: Number.isNaN(created) ? null : created,
            hidden: false,
            likeCount: numberOf(obj(item.public_metrics).like_count) ?? 0,
            isOwn: text(item.author_id) === account.platformUserId,
          };
        });
        return { comments: threaded(comments), after: str(obj(body.meta).next_token) };
      },
    },
    writer: {
      reply: (account, commentId, content) => post(account.accessToken, { text: content, reply: { in_reply_to_tweet_id: commentId } }),
      comment: (account, postId, content) => post(account.accessToken, { text: content, reply: { in_reply_to_tweet_id: postId } }),
    },
    hider: {
      async setHidden(account, commentId, hidden) {
        xBody(await http.send('x', { method: 'PUT', url: `${API}/tweets/${encodeURIComponent(commentId)}/hidden`, bearer: account.accessToken, json: { hidden } }));
      },
    },
    liker: {
      async setLiked(account, commentId, liked) {
        const base = `${API}/users/${encodeURIComponent(account.platformUserId)}/likes`;
        const res = liked
          ? await http.send('x', { method: 'POST', url: base, bearer: account.accessToken, json: { tweet_id: commentId } })
          : await http.send('x', { method: 'DELETE', url: `${base}/${encodeURIComponent(commentId)}`, bearer: account.accessToken });
        xBody(res);
      },
    },
    remover: {
      async remove(account, commentId) {
        xBody(await http.send('x', { method: 'DELETE', url: `${API}/tweets/${encodeURIComponent(commentId)}`, bearer: account.accessToken }));
      },
    },
  };
}
