// The reads (platforms/x.md §2, §5, §10): GET /2/users/me (any access level), and the paid reads
// — a user's posts newest first (start_time, max_results 5–100, pagination_token) and one post by
// id with the fields asked (public, non-public and organic metrics for the owner's posts of the
// last 30 days). Reads answer 403 client-forbidden when settings.x.reads is off.
import type { RouteContext } from '../core/router.ts';
import { answeredText } from './answered-text.ts';
import { requireReads, xAuth } from './auth.ts';
import { invalidRequest, notFound } from './errors.ts';
import type { XUser } from './people.ts';
import type { XPost } from './store.ts';

const READ_SCOPES = ['tweet.read', 'users.read'];
const OWN_METRICS_MS = 30 * 86_400_000;

const fieldsOf = (ctx: RouteContext, name: string): Set<string> => new Set((ctx.query[name] ?? '').split(',').filter(Boolean));

export function userView(user: XUser, fields: Set<string>, postCount: number): Record<string, unknown> {
  const view: Record<string, unknown> = { id: user.id, name: user.name, username: user.username };
  if (fields.has('profile_image_url')) view.profile_image_url = user.profileImageUrl;
  if (fields.has('verified')) view.verified = user.verified;
  if (fields.has('public_metrics')) {
    view.public_metrics = { followers_count: user.followersCount, following_count: user.followingCount, tweet_count: postCount, listed_count: user.listedCount, like_count: 0 };
  }
  return view;
}

/** GET /2/users/me. */
export function me(ctx: RouteContext): unknown {
  const { user } = xAuth(ctx, ['users.read', 'tweet.read'], 'users-me', 75);
  const count = [...ctx.state.x.posts.values()].filter((p) => p.authorId === user.id && !p.deleted).length;
  return { data: userView(user, fieldsOf(ctx, 'user.fields'), count) };
}

function postView(ctx: RouteContext, post: XPost, fields: Set<string>, viewerId: string): Record<string, unknown> {
  const answered = answeredText(ctx.state, post);
  const view: Record<string, unknown> = { id: post.id, text: answered.text, edit_history_tweet_ids: post.editHistory };
  if (fields.has('created_at')) view.created_at = new Date(post.createdAt).toISOString();
  if (fields.has('author_id')) view.author_id = post.authorId;
  if (fields.has('conversation_id')) view.conversation_id = post.conversationId;
  if (fields.has('reply_settings')) view.reply_settings = post.replySettings;
  if (fields.has('entities') && answered.urls.length) view.entities = { urls: answered.urls };
  if (fields.has('referenced_tweets')) {
    const refs = [...(post.inReplyToId ? [{ type: 'replied_to', id: post.inReplyToId }] : []), ...(post.quoteTweetId ? [{ type: 'quoted', id: post.quoteTweetId }] : [])];
    if (refs.length) view.referenced_tweets = refs;
  }
  const m = post.metrics;
  if (fields.has('public_metrics')) view.public_metrics = { retweet_count: m.reposts, reply_count: m.replies, like_count: m.likes, quote_count: m.quotes, bookmark_count: m.bookmarks, impression_count: m.impressions };
  const own = post.authorId === viewerId && ctx.state.clock.now() - post.createdAt < OWN_METRICS_MS;
  if (own && fields.has('non_public_metrics')) view.non_public_metrics = { impression_count: m.impressions, url_link_clicks: m.urlLinkClicks, user_profile_clicks: m.profileClicks, engagements: m.likes + m.replies + m.reposts + m.quotes + m.urlLinkClicks };
  if (own && fields.has('organic_metrics')) view.organic_metrics = { impression_count: m.impressions, like_count: m.likes, reply_count: m.replies, retweet_count: m.reposts, url_link_clicks: m.urlLinkClicks, user_profile_clicks: m.profileClicks };
  if (fields.has('edit_controls')) {
    const first = ctx.state.x.posts.get(post.editHistory[0] ?? post.id) ?? post;
    const until = first.createdAt + 30 * 60_000;
    view.edit_controls = { is_edit_eligible: !post.poll && post.editsRemaining > 0 && ctx.state.clock.now() < until, editable_until: new Date(until).toISOString(), edits_remaining: post.editsRemaining };
  }
  return view;
}

/** The user a timeline read names (`/2/users/{id}/…`), or X's 404. */
function namedUser(ctx: RouteContext): XUser {
  const user = ctx.state.people.xUsers.get(ctx.params.id ?? '');
  if (!user) throw notFound(`Could not find user with id: [${ctx.params.id ?? ''}].`, ctx.params.id ?? '');
  return user;
}

const newestFirst = (a: XPost, b: XPost) => b.createdAt - a.createdAt || (b.id > a.id ? 1 : -1);

/**
 * One page of a timeline (`all`, newest first): max_results 5–100 (default 10), paged by
 * pagination_token (the offset, opaque to callers), with X's meta.
 */
function timelinePage(ctx: RouteContext, all: XPost[]): { page: XPost[]; meta: Record<string, unknown> } {
  const max = ctx.query.max_results === undefined ? 10 : Number(ctx.query.max_results);
  if (!Number.isInteger(max) || max < 5 || max > 100) throw invalidRequest('max_results', 'max_results must be from 5 to 100');
  const offset = ctx.query.pagination_token === undefined ? 0 : Number.parseInt(Buffer.from(ctx.query.pagination_token, 'base64url').toString(), 10);
  if (!Number.isInteger(offset) || offset < 0) throw invalidRequest('pagination_token', 'pagination_token is not valid');
  const page = all.slice(offset, offset + max);
  const meta: Record<string, unknown> = { result_count: page.length };
  if (page.length) Object.assign(meta, { newest_id: page[0]?.id, oldest_id: page.at(-1)?.id });
  if (offset + max < all.length) meta.next_token = Buffer.from(String(offset + max)).toString('base64url');
  return { page, meta };
}

/** A timeline's `start_time` (inclusive, YYYY-MM-DDTHH:mm:ssZ: X's docs say it takes no milliseconds), or no limit. */
function startTime(ctx: RouteContext): number {
  if (ctx.query.start_time === undefined) return -Infinity;
  const since = Date.parse(ctx.query.start_time);
  if (Number.isNaN(since)) throw invalidRequest('start_time', 'start_time must be an RFC 3339 date-time');
  if (/\.\d+/.test(ctx.query.start_time)) throw invalidRequest('start_time', `Invalid 'start_time':'${ctx.query.start_time}'. 'start_time' must be YYYY-MM-DDTHH:mm:ssZ, without milliseconds`);
  return since;
}

/** GET /2/users/{id}/tweets: newest first, from start_time when given. */
export function userPosts(ctx: RouteContext): unknown {
  const { user } = xAuth(ctx, READ_SCOPES, 'users-tweets', 900);
  requireReads(ctx);
  const author = namedUser(ctx);
  const since = startTime(ctx);
  const { page, meta } = timelinePage(ctx, [...ctx.state.x.posts.values()].filter((p) => p.authorId === author.id && !p.deleted && p.createdAt >= since).sort(newestFirst));
  const fields = fieldsOf(ctx, 'tweet.fields');
  return page.length ? { data: page.map((p) => postView(ctx, p, fields, user.id)), meta } : { meta };
}

/** GET /2/tweets/{id}. */
export function lookupPost(ctx: RouteContext): unknown {
  const { user } = xAuth(ctx, READ_SCOPES, 'tweets-lookup', 900);
  requireReads(ctx);
  const id = ctx.params.id ?? '';
  const post = ctx.state.x.posts.get(id);
  if (!post || post.deleted) {
    return { errors: [{ value: id, detail: `Could not find tweet with id: [${id}].`, title: 'Not Found Error', resource_type: 'tweet', parameter: 'id', resource_id: id, type: 'https://api.x.com/2/problems/resource-not-found' }] };
  }
  const view = postView(ctx, post, fieldsOf(ctx, 'tweet.fields'), user.id);
  const video = post.mediaIds.map((m) => ctx.state.x.media.get(m)).find((m) => m?.category === 'tweet_video');
  if (video && (ctx.query.expansions ?? '').includes('attachments.media_keys')) {
    view.attachments = { media_keys: [video.mediaKey] };
    return { data: view, includes: { media: [{ media_key: video.mediaKey, type: 'video', public_metrics: { view_count: post.metrics.videoViews } }] } };
  }
  return { data: view };
}

/**
 * GET /2/users/{id}/mentions: others' posts naming the user by @handle, newest first, after
 * `since_id` and from `start_time` when given, paged like the user's posts;
 * `expansions=author_id` adds the authors.
 */
export function userMentions(ctx: RouteContext): unknown {
  const { user } = xAuth(ctx, READ_SCOPES, 'users-mentions', 300);
  requireReads(ctx);
  const named = namedUser(ctx);
  const sinceId = ctx.query.since_id;
  if (sinceId !== undefined && !/^\d{1,19}$/.test(sinceId)) throw invalidRequest('since_id', 'since_id must be a post id');
  const since = startTime(ctx);
  const handle = new RegExp(`(^|[^\\w])@${named.username}(?!\\w)`, 'i');
  const mentioning = [...ctx.state.x.posts.values()].filter((p) => !p.deleted && p.authorId !== named.id && handle.test(p.text) && p.createdAt >= since && (sinceId === undefined || BigInt(p.id) > BigInt(sinceId)));
  const { page, meta } = timelinePage(ctx, mentioning.sort(newestFirst));
  if (!page.length) return { meta };
  const body: Record<string, unknown> = { data: page.map((p) => postView(ctx, p, fieldsOf(ctx, 'tweet.fields'), user.id)), meta };
  if ((ctx.query.expansions ?? '').split(',').includes('author_id')) {
    const authors = [...new Set(page.map((p) => p.authorId))].flatMap((id) => {
      const author = ctx.state.people.xUsers.get(id);
      return author ? [userView(author, fieldsOf(ctx, 'user.fields'), 0)] : [];
    });
    body.includes = { users: authors };
  }
  return body;
}
