// reddit comments (platforms.md §6.2): the comment tree of a link is `GET /comments/{article}`
// (an array of two Listings: the link, then its comments, each with its `replies` Listing),
// read oldest first and flattened so every reply follows its parent; a reply or a top-level
// comment is `POST /api/comment` with the parent's fullname (`t1_…` or `t3_…`). Ids are
// fullnames. reddit has no hiding, liking as the account, or deleting others' comments here.
import type { PlatformHttp } from '../http.ts';
import { list, numberOf, obj, str, text, type Json } from '../json.ts';
import type { AccountCredentials, CommentReader, CommentWriter, PlatformComment } from '../types.ts';
import { redditEnvelopeError, redditHttpError } from './errors.ts';

const API = 'https://oauth.reddit.com';
/** reddit's largest comment tree per request. */
const MAX_LIMIT = 500;

interface CommentAnswer {
  json?: { errors?: Array<[string, string, string]>; data?: { things?: Array<{ data?: { name?: string } }> } };
}

function toComment(account: AccountCredentials, postId: string, data: Json): PlatformComment {
  const parent = str(data.parent_id);
  const author = str(data.author);
  return {
    id: text(data.name),
    platform: 'reddit',
    platformPostId: postId,
    text: text(data.body),
    username: author === '[deleted]' ? null : author,
    parentId: parent === postId ? null : parent,
    createdAt: numberOf(data.created_utc) === null ? null : (numberOf(data.created_utc) ?? 0) * 1000,
    hidden: false,
    likeCount: numberOf(data.ups) ?? numberOf(data.score) ?? 0,
    isOwn: str(data.author_fullname) === `t2_${account.platformUserId}`,
  };
}

/** Depth first: each comment, then its replies; `more` stubs (comments not loaded) are skipped. */
function flatten(account: AccountCredentials, postId: string, listing: unknown, out: PlatformComment[]): void {
  for (const item of list(obj(obj(listing).data).children)) {
    const child = obj(item);
    if (child.kind !== 't1') continue;
    const data = obj(child.data);
    out.push(toComment(account, postId, data));
    flatten(account, postId, data.replies, out);
  }
}

export function redditComments(http: PlatformHttp, userAgent: string): { reader: CommentReader; writer: CommentWriter } {
  const headers = (account: AccountCredentials) => ({ authorization: `bearer ${account.accessToken}`, 'user-agent': userAgent });
  const post = async (account: AccountCredentials, thingId: string, body: string) => {
    const res = await http.send('reddit', { method: 'POST', url: `${API}/api/comment`, form: { api_type: 'json', thing_id: thingId, text: body }, headers: headers(account) });
    if (res.status !== 200) throw redditHttpError(res.status, res.headers);
    const answer = obj(res.body) as CommentAnswer;
    const errors = answer.json?.errors ?? [];
    if (errors.length) throw redditEnvelopeError(errors);
    const name = answer.json?.data?.things?.[0]?.data?.name;
    if (!name) throw redditHttpError(502);
    return { id: name };
  };
  return {
    reader: {
      // One tree per call: reddit pages a comment tree with `more` stubs (/api/morechildren),
      // which are not followed yet, so there is never a next page.
      async list(account, postId, page) {
        const article = postId.replace(/^t3_/, '');
        const res = await http.send('reddit', {
          url: `${API}/comments/${encodeURIComponent(article)}`,
          query: { sort: 'old', limit: Math.min(page.limit, MAX_LIMIT), threaded: 'true', raw_json: 1 },
          headers: headers(account),
        });
        if (res.status !== 200) throw redditHttpError(res.status, res.headers);
        const comments: PlatformComment[] = [];
        flatten(account, postId, list(res.body)[1], comments);
        return { comments, after: null };
      },
    },
    writer: {
      reply: (account, commentId, body) => post(account, commentId, body),
      comment: (account, postId, body) => post(account, postId, body),
    },
  };
}
