// Replies and their moderation (platforms/x.md §5): the replies of a post from
// GET /2/tweets/search/recent?query=conversation_id:{id} (last 7 days, a paid read), hiding a
// reply to one's own post (PUT /2/tweets/{id}/hidden, tweet.moderate.write), liking
// (POST /2/users/{id}/likes, DELETE /2/users/{id}/likes/{tweet_id}, like.write), and a person
// replying through the control API (`POST /_sandbox/x/replies {postId, text, from?: {username}}`).
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { answeredText } from './answered-text.ts';
import { requireReads, xAuth } from './auth.ts';
import { forbidden, invalidRequest, notAuthorizedForResource, notFound } from './errors.ts';
import { userView } from './reads.ts';
import type { XPost } from './store.ts';

const SEARCH_WINDOW_MS = 7 * 86_400_000;
const body = (ctx: RouteContext): Record<string, unknown> => (ctx.body && typeof ctx.body === 'object' ? (ctx.body as Record<string, unknown>) : {});

function replyView(state: SandboxState, post: XPost): Record<string, unknown> {
  return {
    id: post.id,
    text: answeredText(state, post).text,
    author_id: post.authorId,
    created_at: new Date(post.createdAt).toISOString(),
    conversation_id: post.conversationId,
    edit_history_tweet_ids: post.editHistory,
    ...(post.inReplyToId ? { referenced_tweets: [{ type: 'replied_to', id: post.inReplyToId }] } : {}),
    public_metrics: { retweet_count: post.metrics.reposts, reply_count: post.metrics.replies, like_count: post.likedBy.length + post.metrics.likes, quote_count: post.metrics.quotes, bookmark_count: post.metrics.bookmarks, impression_count: post.metrics.impressions },
  };
}

/** GET /2/tweets/search/recent with `conversation_id:{id}`: newest first, paged by next_token. */
export function searchRecent(ctx: RouteContext): unknown {
  xAuth(ctx, ['tweet.read', 'users.read'], 'search-recent', 300);
  requireReads(ctx);
  const conversation = /^conversation_id:(\d{1,19})$/.exec(ctx.query.query ?? '')?.[1];
  if (!conversation) throw invalidRequest('query', 'the sandbox searches `conversation_id:{id}` only');
  const max = ctx.query.max_results === undefined ? 10 : Number(ctx.query.max_results);
  if (!Number.isInteger(max) || max < 10 || max > 100) throw invalidRequest('max_results', 'max_results must be from 10 to 100');
  const offset = ctx.query.next_token === undefined ? 0 : Number.parseInt(Buffer.from(ctx.query.next_token, 'base64url').toString(), 10);
  const now = ctx.state.clock.now();
  const all = [...ctx.state.x.posts.values()]
    .filter((p) => p.conversationId === conversation && p.id !== conversation && !p.deleted && p.createdAt >= now - SEARCH_WINDOW_MS)
    .sort((a, b) => b.createdAt - a.createdAt || (b.id > a.id ? 1 : -1));
  const page = all.slice(offset, offset + max);
  const meta: Record<string, unknown> = { result_count: page.length };
  if (offset + max < all.length) meta.next_token = Buffer.from(String(offset + max)).toString('base64url');
  if (!page.length) return { meta };
  const users = [...new Set(page.map((p) => p.authorId))].flatMap((id) => ctx.state.people.xUsers.get(id) ?? []);
  return { data: page.map((p) => replyView(ctx.state, p)), includes: { users: users.map((u) => userView(u, new Set(), 0)) }, meta };
}

/** PUT /2/tweets/{id}/hidden `{hidden}`: only replies in a conversation the caller started. */
export function hideReply(ctx: RouteContext): unknown {
  const { user } = xAuth(ctx, ['tweet.read', 'users.read', 'tweet.moderate.write'], 'hide-replies', 50);
  const reply = ctx.state.x.posts.get(ctx.params.id ?? '');
  if (!reply || reply.deleted) throw notFound(`Could not find tweet with id: [${ctx.params.id ?? ''}].`, ctx.params.id ?? '');
  const root = ctx.state.x.posts.get(reply.conversationId);
  if (!reply.inReplyToId || root?.authorId !== user.id || reply.authorId === user.id) throw notAuthorizedForResource('You may only hide replies to your own posts.');
  const hidden = body(ctx).hidden;
  if (typeof hidden !== 'boolean') throw invalidRequest('hidden', 'hidden must be a boolean');
  reply.hidden = hidden;
  return { data: { hidden } };
}

function likeTarget(ctx: RouteContext, tweetId: string): { userId: string; post: XPost } {
  const { user } = xAuth(ctx, ['tweet.read', 'users.read', 'like.write'], 'likes', 50);
  if (ctx.params.id !== user.id) throw forbidden('You may only like as the authenticated user.');
  const post = ctx.state.x.posts.get(tweetId);
  if (!post || post.deleted) throw notFound(`Could not find tweet with id: [${tweetId}].`, tweetId);
  return { userId: user.id, post };
}

/** POST /2/users/{id}/likes `{tweet_id}`. */
export function like(ctx: RouteContext): unknown {
  const tweetId = body(ctx).tweet_id;
  if (typeof tweetId !== 'string') throw invalidRequest('tweet_id', 'tweet_id is required');
  const { userId, post } = likeTarget(ctx, tweetId);
  if (!post.likedBy.includes(userId)) post.likedBy.push(userId);
  return { data: { liked: true } };
}

/** DELETE /2/users/{id}/likes/{tweet_id}. */
export function unlike(ctx: RouteContext): unknown {
  const { userId, post } = likeTarget(ctx, ctx.params.tweet_id ?? '');
  post.likedBy = post.likedBy.filter((id) => id !== userId);
  return { data: { liked: false } };
}

/** A post by a sandbox person (a new user named `username` when none has that name), replying to `parent` or starting a conversation. */
function personPost(state: SandboxState, input: { text: string; username?: string | undefined }, parent: XPost | null): XPost {
  const name = input.username ?? 'sandbox_fan';
  const author = [...state.people.xUsers.values()].find((u) => u.username === name) ?? state.addXUser({ username: name, name });
  const id = state.ids.numeric('x-post', '19', 19);
  const post: XPost = {
    id, authorId: author.id, text: input.text, urls: [], createdAt: state.clock.now(), mediaIds: [], poll: null, replySettings: 'everyone', quoteTweetId: null,
    inReplyToId: parent?.id ?? null, conversationId: parent?.conversationId ?? id, editHistory: [id], editsRemaining: 5, madeWithAi: false, paidPartnership: false, deleted: false, hidden: false, likedBy: [],
    metrics: { impressions: 0, likes: 0, replies: 0, reposts: 0, quotes: 0, bookmarks: 0, urlLinkClicks: 0, profileClicks: 0, videoViews: 0 },
  };
  state.x.posts.set(id, post);
  return post;
}

/** A person replies to a post (control API). */
export function personReplies(state: SandboxState, input: { postId: string; text: string; username?: string | undefined }): XPost {
  const parent = state.x.posts.get(input.postId);
  if (!parent || parent.deleted) throw new Error('postId: a live post the sandbox knows');
  const post = personPost(state, input, parent);
  parent.metrics.replies++;
  return post;
}

/** A person's post that names another user by @handle (the control API's mentions). */
export function personMentions(state: SandboxState, input: { text: string; username?: string | undefined }): XPost {
  const named = [...input.text.matchAll(/@(\w{1,15})/g)].map((m) => m[1]?.toLowerCase());
  if (![...state.people.xUsers.values()].some((u) => named.includes(u.username.toLowerCase()))) throw new Error('text: must name a sandbox user by @handle');
  return personPost(state, input, null);
}
