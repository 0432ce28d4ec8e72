// reddit comments (platforms.md §6.2): the comment tree of a link is `GET /comments/{article}`
// (an array of two Listings: the link, then its comments, each with its `replies` Listing), in
// `sort=old` order; what reddit leaves out of it (more than its 500 comments per answer) comes
// as `more` stubs, loaded with `GET /api/morechildren` (link_id, up to 100 children a call,
// api_type=json) for the page being answered, and threads cut by reddit's depth limit ("continue
// this thread") with `?comment={id}` (comment-tree.ts). A page is `limit` top-level
// comments, each followed by its replies; the cursor is the fullname of the page's last
// top-level comment, so the next page starts after it even when it was deleted meanwhile.
// A reply or a top-level comment is `POST /api/comment` with the parent's fullname (`t1_…` or
// `t3_…`). Ids are fullnames. reddit has no hiding, liking as the account, or deleting others'
// comments here.
import type { PlatformHttp } from '../http.ts';
import { PlatformError } from '../errors.ts';
import { list, numberOf, obj, str, text, type Json } from '../json.ts';
import type { AccountCredentials, CommentReader, CommentWriter, PlatformComment } from '../types.ts';
import { CommentTree, idValue } from './comment-tree.ts';
import { redditEnvelopeError, redditHttpError } from './errors.ts';

const API = 'https://oauth.reddit.com';
/** reddit's largest comment tree per request. */
const MAX_LIMIT = 500;
/** The most comments /api/morechildren answers per call. */
const MORE_PER_CALL = 100;
/** /api/morechildren and ?comment= calls per page at most: a page whose comments need more ends early (its cursor says where). */
const MAX_MORE_CALLS = 10;
const CURSOR = /^t1_[0-9a-z]{1,12}$/;

interface MoreAnswer {
  json?: { errors?: Array<[string, string, string]>; data?: { things?: unknown[] } };
}

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
  /** The link's comment Listing, or the thread under one comment (`comment`: reddit's "continue this thread"). */
  const readTree = async (account: AccountCredentials, linkId: string, comment: string | null): Promise<unknown> => {
    const res = await http.send('reddit', {
      url: `${API}/comments/${encodeURIComponent(linkId.slice(3))}`,
      query: { sort: 'old', limit: MAX_LIMIT, threaded: 'true', raw_json: 1, ...(comment ? { comment: comment.slice(3) } : {}) },
      headers: headers(account),
    });
    if (res.status !== 200) throw redditHttpError(res.status, res.headers);
    return list(res.body)[1];
  };
  const moreChildren = async (account: AccountCredentials, linkId: string, names: string[]): Promise<unknown[]> => {
    const res = await http.send('reddit', {
      url: `${API}/api/morechildren`,
      query: { link_id: linkId, children: names.map((n) => n.slice(3)).join(','), sort: 'old', limit_children: 'false', api_type: 'json', raw_json: 1 },
      headers: headers(account),
    });
    if (res.status !== 200) throw redditHttpError(res.status, res.headers);
    const answer = obj(res.body) as MoreAnswer;
    const errors = answer.json?.errors ?? [];
    if (errors.length) throw redditEnvelopeError(errors);
    return list(answer.json?.data?.things);
  };
  return {
    reader: {
      async list(account, postId, page) {
        if (page.after !== null && !CURSOR.test(page.after)) throw new PlatformError('invalid', 'not a cursor of this comment list', { platform: 'reddit' });
        const linkId = postId.startsWith('t3_') ? postId : `t3_${postId}`;
        const tree = new CommentTree(linkId);
        tree.addListing(await readTree(account, linkId, null));
        const after = page.after;
        const rest = tree.topLevel().filter((name) => after === null || idValue(name) > idValue(after));
        let roots = rest.slice(0, page.limit);
        // The page's missing comments: listed ones through /api/morechildren, cut threads through ?comment=.
        for (let calls = 0; calls < MAX_MORE_CALLS; calls++) {
          const wanted = tree.pendingUnder(new Set(roots)).slice(0, MORE_PER_CALL);
          const [thread] = wanted.length ? [] : tree.continuedUnder(new Set(roots));
          if (wanted.length) tree.addThings(await moreChildren(account, linkId, wanted), wanted);
          else if (thread) tree.addThread(thread, await readTree(account, linkId, thread));
          else break;
        }
        // Out of calls: the page ends before the first root still missing comments (the first
        // root stays, whatever it misses: each call loads at least the comments it asks for).
        const incomplete = roots.findIndex((name, i) => i > 0 && tree.incomplete(name));
        if (incomplete > 0) roots = roots.slice(0, incomplete);
        const more = rest.length > roots.length;
        const comments = tree.ordered(roots.filter((name) => tree.comments.has(name))).map((data) => toComment(account, linkId, data));
        return { comments, after: more ? (roots.at(-1) ?? null) : null };
      },
    },
    writer: {
      reply: (account, commentId, body) => post(account, commentId, body),
      comment: (account, postId, body) => post(account, postId, body),
    },
  };
}
