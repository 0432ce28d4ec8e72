// POST /2/tweets with X's rules (platforms/x.md §3, §6, §8): text of at most 280 weighted
// characters (twitter-text v3) unless media carry the post, 1–4 processed media ids (4 images, or
// one GIF, or one video), a poll of 2–4 options of 1–25 characters for 5–10080 minutes (not with
// media or a quote), reply settings, quotes, replies, disclosure flags, duplicate text refused,
// edits within 30 minutes (5 at most, not polls), unknown fields refused; 201 with the new id.
// The stored text has each URL replaced by a t.co link; answered-text.ts makes it what X answers.
import type { RouteContext } from '../core/router.ts';
import { weightedLength, X_TEXT_MAX, xUrls } from '../../platforms/x/weighted-length.ts';
import { answeredText, withScheme } from './answered-text.ts';
import { xAuth } from './auth.ts';
import { duplicateContent, forbidden, invalidRequest, notAuthorizedForResource, notFound } from './errors.ts';
import { mediaProblem } from './media.ts';
import type { XPost, XUrlEntity } from './store.ts';

const FIELDS = new Set(['text', 'media', 'poll', 'reply', 'quote_tweet_id', 'reply_settings', 'edit_options', 'made_with_ai', 'paid_partnership', 'for_super_followers_only', 'geo', 'card_uri', 'nullcast', 'direct_message_deep_link', 'community_id', 'share_with_followers']);
export const REPLY_SETTINGS = ['following', 'mentionedUsers', 'subscribers', 'verified'] as const;
const EDIT_WINDOW_MS = 30 * 60_000;
const DUPLICATE_WINDOW_MS = 24 * 3_600_000;

type Json = Record<string, unknown>;
const obj = (value: unknown): Json | null => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null);

function idOf(value: unknown, parameter: string): string {
  if (typeof value !== 'string' || !/^\d{1,19}$/.test(value)) throw invalidRequest(parameter, `${parameter} must be a string of 1 to 19 digits`);
  return value;
}

function livePost(ctx: RouteContext, id: string, parameter: string): XPost {
  const post = ctx.state.x.posts.get(id);
  if (!post || post.deleted) throw invalidRequest(parameter, `${parameter}: the post ${id} does not exist or was deleted`);
  return post;
}

/** POST /2/tweets. */
export function createPost(ctx: RouteContext): unknown {
  const { user } = xAuth(ctx, ['tweet.read', 'tweet.write', 'users.read'], 'tweets-create', ctx.state.settings.x.postsPer15Min);
  const body = obj(ctx.body);
  if (!body) throw invalidRequest('body', 'the body must be a JSON object');
  for (const key of Object.keys(body)) if (!FIELDS.has(key)) throw invalidRequest(key, `The \`${key}\` field is not allowed`);
  const now = ctx.state.clock.now();
  const text = body.text;
  if (text !== undefined && typeof text !== 'string') throw invalidRequest('text', 'text must be a string');

  const media = obj(body.media);
  if (body.media !== undefined && !media) throw invalidRequest('media', 'media must be an object');
  const mediaIds = media ? mediaIdsOf(ctx, media, user.id) : [];
  if ((text ?? '').trim() === '' && mediaIds.length === 0 && body.quote_tweet_id === undefined && body.card_uri === undefined) {
    throw invalidRequest('text', 'Post text, media, quote or card is required');
  }
  if (text !== undefined && weightedLength(text) > X_TEXT_MAX) throw invalidRequest('text', `Your Tweet text is too long: ${weightedLength(text)} weighted characters, at most ${X_TEXT_MAX}.`);

  const poll = body.poll === undefined ? null : pollOf(body.poll);
  if (poll && mediaIds.length) throw invalidRequest('poll', 'a poll cannot be combined with media');
  if (poll && body.quote_tweet_id !== undefined) throw invalidRequest('poll', 'a poll cannot be combined with quote_tweet_id');
  const quote = body.quote_tweet_id === undefined ? null : livePost(ctx, idOf(body.quote_tweet_id, 'quote_tweet_id'), 'quote_tweet_id');
  const reply = obj(body.reply);
  if (body.reply !== undefined && !reply) throw invalidRequest('reply', 'reply must be an object');
  const parent = reply ? livePost(ctx, idOf(reply.in_reply_to_tweet_id, 'reply.in_reply_to_tweet_id'), 'reply.in_reply_to_tweet_id') : null;
  const replySettings = body.reply_settings;
  if (replySettings !== undefined && !(REPLY_SETTINGS as readonly unknown[]).includes(replySettings)) {
    throw invalidRequest('reply_settings', `reply_settings must be one of ${REPLY_SETTINGS.join(', ')}`);
  }
  for (const flag of ['made_with_ai', 'paid_partnership'] as const) {
    if (body[flag] !== undefined && typeof body[flag] !== 'boolean') throw invalidRequest(flag, `${flag} must be a boolean`);
  }

  const edit = obj(body.edit_options);
  const previous = edit ? editable(ctx, idOf(edit.previous_post_id, 'edit_options.previous_post_id'), user.id, now) : null;
  const sent = text ?? '';
  if (!previous && sent.trim() && isDuplicate(ctx, user.id, sent, now)) throw duplicateContent();

  const id = ctx.state.ids.numeric('x-post', '19', 19);
  const { stored, urls } = shorten(ctx, sent);
  const post: XPost = {
    id,
    authorId: user.id,
    text: stored,
    urls,
    createdAt: now,
    mediaIds,
    poll,
    replySettings: typeof replySettings === 'string' ? replySettings : (previous?.replySettings ?? 'everyone'),
    quoteTweetId: quote?.id ?? null,
    inReplyToId: parent?.id ?? null,
    conversationId: parent?.conversationId ?? id,
    editHistory: previous ? [...previous.editHistory, id] : [id],
    editsRemaining: previous ? previous.editsRemaining - 1 : 5,
    madeWithAi: body.made_with_ai === true,
    paidPartnership: body.paid_partnership === true,
    deleted: false,
    hidden: false,
    likedBy: [],
    metrics: { impressions: 0, likes: 0, replies: 0, reposts: 0, quotes: 0, bookmarks: 0, urlLinkClicks: 0, profileClicks: 0, videoViews: 0 },
  };
  for (const mediaId of mediaIds) {
    const item = ctx.state.x.media.get(mediaId);
    if (item) item.used = true;
  }
  ctx.state.x.posts.set(id, post);
  if (previous) for (const old of previous.editHistory) { const p = ctx.state.x.posts.get(old); if (p) p.editsRemaining = post.editsRemaining; }
  if (parent) parent.metrics.replies++;
  if (quote) quote.metrics.quotes++;
  void ctx.reply.status(201);
  return { data: { id, text: answeredText(ctx.state, post).text, edit_history_tweet_ids: post.editHistory } };
}

function mediaIdsOf(ctx: RouteContext, media: Json, userId: string): string[] {
  const ids = media.media_ids;
  if (!Array.isArray(ids) || ids.length < 1 || ids.length > 4) throw invalidRequest('media.media_ids', 'media.media_ids must have 1 to 4 ids');
  const tagged = media.tagged_user_ids;
  if (tagged !== undefined && (!Array.isArray(tagged) || tagged.length > 10)) throw invalidRequest('media.tagged_user_ids', 'at most 10 tagged users');
  const items = ids.map((value, i) => {
    const id = idOf(value, `media.media_ids[${i}]`);
    const item = ctx.state.x.media.get(id);
    const problem = item && item.ownerId !== userId ? 'unknown media id' : mediaProblem(ctx, item);
    if (problem) throw invalidRequest('media.media_ids', `${id}: ${problem}`);
    return item;
  });
  const kinds = items.map((m) => (m?.category === 'tweet_video' ? 'video' : m?.category === 'tweet_gif' || m?.mediaType === 'image/gif' ? 'gif' : 'image'));
  if (kinds.length > 1 && kinds.some((k) => k !== 'image')) throw invalidRequest('media.media_ids', 'a post has up to 4 images, or 1 GIF, or 1 video');
  return ids as string[];
}

function pollOf(value: unknown): { options: string[]; durationMinutes: number } {
  const poll = obj(value);
  if (!poll) throw invalidRequest('poll', 'poll must be an object');
  const options = poll.options;
  if (!Array.isArray(options) || options.length < 2 || options.length > 4) throw invalidRequest('poll.options', 'a poll has 2 to 4 options');
  options.forEach((o: unknown, i) => {
    if (typeof o !== 'string' || [...o].length < 1 || [...o].length > 25) throw invalidRequest(`poll.options[${i}]`, 'each option has 1 to 25 characters');
  });
  const minutes = poll.duration_minutes;
  if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 5 || minutes > 10080) throw invalidRequest('poll.duration_minutes', 'duration_minutes is 5 to 10080');
  return { options: options as string[], durationMinutes: minutes };
}

/** The post an edit replaces: the chain's newest, own, within 30 minutes of the first, edits left, no poll. */
function editable(ctx: RouteContext, id: string, userId: string, now: number): XPost {
  const post = livePost(ctx, id, 'edit_options.previous_post_id');
  const first = ctx.state.x.posts.get(post.editHistory[0] ?? id) ?? post;
  if (post.authorId !== userId) throw notAuthorizedForResource('You are not permitted to edit this post.');
  if (post.editHistory.at(-1) !== post.id) throw invalidRequest('edit_options.previous_post_id', 'only the latest version of a post can be edited');
  if (post.poll) throw invalidRequest('edit_options.previous_post_id', 'posts with polls cannot be edited');
  if (now > first.createdAt + EDIT_WINDOW_MS) throw invalidRequest('edit_options.previous_post_id', 'This post can no longer be edited: the 30-minute edit window has passed.');
  if (post.editsRemaining <= 0) throw invalidRequest('edit_options.previous_post_id', 'This post has no edits left.');
  return post;
}

/** The same text as one of the account's posts of the last day (X compares the text as sent, links included). */
function isDuplicate(ctx: RouteContext, userId: string, text: string, now: number): boolean {
  for (const post of ctx.state.x.posts.values()) {
    if (post.authorId !== userId || post.deleted || post.createdAt < now - DUPLICATE_WINDOW_MS) continue;
    if (withoutSchemes(expand(post)) === withoutSchemes(text.normalize('NFC'))) return true;
  }
  return false;
}

/** A text whose links compare alike whether or not they were sent with a scheme (X adds `http://` to a bare host). */
const withoutSchemes = (text: string): string => text.replace(/\bhttps?:\/\//giu, '');

/** The text with its t.co links put back. */
export function expand(post: XPost): string {
  return post.urls.reduce((text, u) => text.replace(u.url, u.expandedUrl), post.text);
}

function shorten(ctx: RouteContext, text: string): { stored: string; urls: XUrlEntity[] } {
  const urls: XUrlEntity[] = [];
  let stored = text.normalize('NFC');
  for (const expandedUrl of xUrls(stored)) {
    const url = `https://t.co/${ctx.state.ids.opaque('x-tco', 10)}`;
    stored = stored.replace(expandedUrl, url);
    urls.push({ url, expandedUrl: withScheme(expandedUrl) });
  }
  return { stored, urls };
}

/** DELETE /2/tweets/{id}: own posts only; deleting any version of an edited post deletes the chain. */
export function deletePost(ctx: RouteContext): unknown {
  const { user } = xAuth(ctx, ['tweet.read', 'tweet.write', 'users.read'], 'tweets-delete', 50);
  const id = idOf(ctx.params.id, 'id');
  const post = ctx.state.x.posts.get(id);
  if (!post || post.deleted) throw notFound(`Could not find tweet with id: [${id}].`, id);
  if (post.authorId !== user.id) throw forbidden('You are not allowed to delete this Tweet.');
  for (const version of post.editHistory) {
    const p = ctx.state.x.posts.get(version);
    if (p) p.deleted = true;
  }
  return { data: { deleted: true } };
}
