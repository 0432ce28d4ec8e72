// The app.bsky.* reads the PDS proxies to the AppView (bluesky.md §6), answered from the records
// (the real AppView sees a post a moment later, through the firehose: `bluesky.appViewLagMs`, 0 by
// default, hides records younger than that from every read here): threads, posts
// with their counts, author feeds, profiles, and the notifications of the caller (replies,
// mentions, quotes, likes, reposts and follows by others, derived from their records, so deleting
// a record takes its notification away). Counts are the records' plus the control API's extras.
// A thread answers its root's threadgate beside it (`threadgate`), as getPostThread does: the
// replies it hides are still in `replies`, and clients hide them by its `hiddenReplies`.
// Embeds are answered as their records (no hydrated embed views).
import type { RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { parseAtUri } from './codec.ts';
import { invalidRequest, xrpcError } from './errors.ts';
import { findAccount, type BlueskyAccount } from './people.ts';
import { atUri } from './records.ts';
import { blueskyAuth } from './sessions.ts';
import type { RepoRecord } from './store.ts';
import { quotedUri } from './embeds.ts';

type Json = Record<string, unknown>;
const POST = 'app.bsky.feed.post';
const iso = (ms: number): string => new Date(ms).toISOString();
const field = (value: unknown, key: string): unknown => (value && typeof value === 'object' ? (value as Json)[key] : undefined);
const refUri = (value: unknown, key: string): string | undefined => {
  const uri = field(field(value, key), 'uri');
  return typeof uri === 'string' ? uri : undefined;
};

export function profileBasic(account: BlueskyAccount) {
  return { did: account.did, handle: account.handle, displayName: account.displayName, avatar: account.avatar, labels: [], createdAt: iso(account.createdAt) };
}

/** The AppView sees a record `bluesky.appViewLagMs` after the PDS took it (the firehose's delay; 0 by default). */
const seen = (state: SandboxState, record: RepoRecord): boolean => record.indexedAt + state.settings.bluesky.appViewLagMs <= state.clock.now();

function records(state: SandboxState): RepoRecord[] {
  return [...state.bluesky.records.values()].filter((r) => seen(state, r));
}

function counts(state: SandboxState, uri: string) {
  const extra = state.bluesky.extraCounts.get(uri);
  let replyCount = extra?.replies ?? 0;
  let likeCount = extra?.likes ?? 0;
  let repostCount = extra?.reposts ?? 0;
  let quoteCount = extra?.quotes ?? 0;
  for (const r of records(state)) {
    if (r.collection === POST && refUri(r.value.reply, 'parent') === uri) replyCount++;
    if (r.collection === POST && quotedUri(r.value.embed) === uri) quoteCount++;
    if (r.collection === 'app.bsky.feed.like' && refUri(r.value, 'subject') === uri) likeCount++;
    if (r.collection === 'app.bsky.feed.repost' && refUri(r.value, 'subject') === uri) repostCount++;
  }
  return { replyCount, repostCount, likeCount, quoteCount };
}

function postView(state: SandboxState, record: RepoRecord) {
  const author = state.people.blueskyAccounts.get(record.did);
  return {
    uri: record.uri,
    cid: record.cid,
    author: author ? profileBasic(author) : { did: record.did, handle: 'handle.invalid' },
    record: record.value,
    ...counts(state, record.uri),
    indexedAt: iso(record.indexedAt),
    labels: [],
  };
}

/** A post by at:// URI, the repository named by DID or handle. */
function findPost(state: SandboxState, uri: string): RepoRecord | undefined {
  const parsed = parseAtUri(uri);
  if (!parsed || parsed.collection !== POST) return undefined;
  const account = findAccount(state, parsed.repo);
  const record = account ? state.bluesky.records.get(atUri(account.did, POST, parsed.rkey)) : undefined;
  return record && seen(state, record) ? record : undefined;
}

function intParam(ctx: RouteContext, name: string, fallback: number, min: number, max: number): number {
  const raw = ctx.query[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw invalidRequest(`${name} must be an integer`);
  if (value < min) throw invalidRequest(`${name} can not be less than ${min}`);
  if (value > max) throw invalidRequest(`${name} can not be greater than ${max}`);
  return value;
}

/** Every value of a repeated query parameter (`uris=a&uris=b`). */
function many(ctx: RouteContext, name: string): string[] {
  const value = (ctx.request.query as Record<string, unknown>)[name];
  const list: unknown[] = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter((v): v is string => typeof v === 'string');
}

const notFoundPost = (uri: string) => ({ $type: 'app.bsky.feed.defs#notFoundPost', uri, notFound: true });

function replies(state: SandboxState, uri: string): RepoRecord[] {
  return records(state)
    .filter((r) => r.collection === POST && refUri(r.value.reply, 'parent') === uri)
    .sort((a, b) => a.indexedAt - b.indexedAt);
}

function threadNode(state: SandboxState, record: RepoRecord, depth: number): Json {
  return {
    $type: 'app.bsky.feed.defs#threadViewPost',
    post: postView(state, record),
    replies: depth > 0 ? replies(state, record.uri).map((r) => threadNode(state, r, depth - 1)) : [],
  };
}

function withParents(state: SandboxState, node: Json, record: RepoRecord, height: number): Json {
  const parentUri = refUri(record.value.reply, 'parent');
  if (!parentUri || height <= 0) return node;
  const parent = findPost(state, parentUri);
  if (!parent) return { ...node, parent: notFoundPost(parentUri) };
  return { ...node, parent: withParents(state, { $type: 'app.bsky.feed.defs#threadViewPost', post: postView(state, parent) }, parent, height - 1) };
}

/** GET app.bsky.feed.getPostThread?uri&depth&parentHeight. */
export function getPostThread(ctx: RouteContext): unknown {
  blueskyAuth(ctx);
  const uri = ctx.query.uri;
  if (!uri) throw invalidRequest('Params must have the property "uri"');
  const depth = intParam(ctx, 'depth', 6, 0, 1000);
  const parentHeight = intParam(ctx, 'parentHeight', 80, 0, 1000);
  const record = findPost(ctx.state, uri);
  if (!record) throw xrpcError(400, 'NotFound', `Post not found: ${uri}`);
  const thread = withParents(ctx.state, threadNode(ctx.state, record, depth), record, parentHeight);
  const rootUri = refUri(record.value.reply, 'root') ?? record.uri;
  const root = findPost(ctx.state, rootUri);
  const gate = root ? ctx.state.bluesky.records.get(atUri(root.did, 'app.bsky.feed.threadgate', root.rkey)) : undefined;
  return { thread, ...(gate ? { threadgate: { uri: gate.uri, cid: gate.cid, record: gate.value, lists: [] } } : {}) };
}

/** GET app.bsky.feed.getPosts?uris (up to 25); unknown ones are left out. */
export function getPosts(ctx: RouteContext): unknown {
  blueskyAuth(ctx);
  const uris = many(ctx, 'uris');
  if (uris.length === 0) throw invalidRequest('Params must have the property "uris"');
  if (uris.length > 25) throw invalidRequest('uris must not have more than 25 elements');
  return { posts: uris.flatMap((uri) => {
    const record = findPost(ctx.state, uri);
    return record ? [postView(ctx.state, record)] : [];
  }) };
}

function actor(ctx: RouteContext): BlueskyAccount {
  const value = ctx.query.actor;
  if (!value) throw invalidRequest('Params must have the property "actor"');
  const account = findAccount(ctx.state, value);
  if (!account) throw invalidRequest('Profile not found');
  return account;
}

const FILTERS = ['posts_with_replies', 'posts_no_replies', 'posts_with_media', 'posts_and_author_threads', 'posts_with_video'];
const hasMedia = (embed: unknown): boolean => {
  const type = field(embed, '$type');
  return type === 'app.bsky.embed.images' || type === 'app.bsky.embed.video' || (type === 'app.bsky.embed.recordWithMedia' && hasMedia(field(embed, 'media')));
};

/** GET app.bsky.feed.getAuthorFeed?actor&limit&cursor&filter: newest first; the cursor is the last post's rkey. */
export function getAuthorFeed(ctx: RouteContext): unknown {
  blueskyAuth(ctx);
  const account = actor(ctx);
  const limit = intParam(ctx, 'limit', 50, 1, 100);
  const filter = ctx.query.filter ?? 'posts_with_replies';
  if (!FILTERS.includes(filter)) throw invalidRequest(`filter must be one of ${FILTERS.join(', ')}`);
  const cursor = ctx.query.cursor;
  const posts = records(ctx.state)
    .filter((r) => r.did === account.did && r.collection === POST)
    .filter((r) => {
      const reply = r.value.reply;
      if (filter === 'posts_no_replies') return reply === undefined;
      if (filter === 'posts_with_media') return hasMedia(r.value.embed);
      if (filter === 'posts_with_video') return field(r.value.embed, '$type') === 'app.bsky.embed.video';
      if (filter === 'posts_and_author_threads') return reply === undefined || refUri(reply, 'root')?.startsWith(`at://${account.did}/`) === true;
      return true;
    })
    .sort((a, b) => (a.rkey < b.rkey ? 1 : a.rkey > b.rkey ? -1 : 0))
    .filter((r) => !cursor || r.rkey < cursor);
  const page = posts.slice(0, limit);
  const feed = page.map((r) => {
    const parent = findPost(ctx.state, refUri(r.value.reply, 'parent') ?? '');
    const root = findPost(ctx.state, refUri(r.value.reply, 'root') ?? '');
    return { post: postView(ctx.state, r), ...(parent && root ? { reply: { root: postView(ctx.state, root), parent: postView(ctx.state, parent) } } : {}) };
  });
  const last = page.at(-1);
  return { feed, ...(last && posts.length > limit ? { cursor: last.rkey } : {}) };
}

/** GET app.bsky.actor.getProfile?actor. */
export function getProfile(ctx: RouteContext): unknown {
  blueskyAuth(ctx);
  const account = actor(ctx);
  const all = records(ctx.state);
  const follows = (r: RepoRecord) => r.collection === 'app.bsky.graph.follow';
  return {
    ...profileBasic(account),
    description: account.description,
    followersCount: account.followersCount + all.filter((r) => follows(r) && r.value.subject === account.did).length,
    followsCount: account.followsCount + all.filter((r) => follows(r) && r.did === account.did).length,
    postsCount: all.filter((r) => r.did === account.did && r.collection === POST).length,
    indexedAt: iso(account.createdAt),
  };
}

interface Notification {
  record: RepoRecord;
  reason: string;
  reasonSubject?: string;
}

const ownedBy = (did: string, uri: string | undefined | null): boolean => typeof uri === 'string' && uri.startsWith(`at://${did}/`);

function mentions(record: RepoRecord, did: string): boolean {
  const facets = record.value.facets;
  if (!Array.isArray(facets)) return false;
  return facets.some((f) => {
    const features = field(f, 'features');
    return Array.isArray(features) && features.some((x) => field(x, '$type') === 'app.bsky.richtext.facet#mention' && field(x, 'did') === did);
  });
}

/** What another account's record tells this account, if anything. */
function notificationOf(record: RepoRecord, did: string): Notification | null {
  if (record.did === did) return null;
  const value = record.value;
  switch (record.collection) {
    case POST: {
      const parent = refUri(value.reply, 'parent');
      const root = refUri(value.reply, 'root');
      if (ownedBy(did, parent)) return { record, reason: 'reply', reasonSubject: parent };
      if (ownedBy(did, root)) return { record, reason: 'reply', reasonSubject: root };
      const quoted = quotedUri(value.embed);
      if (ownedBy(did, quoted)) return { record, reason: 'quote', reasonSubject: quoted ?? undefined };
      return mentions(record, did) ? { record, reason: 'mention' } : null;
    }
    case 'app.bsky.feed.like':
    case 'app.bsky.feed.repost': {
      const subject = refUri(value, 'subject');
      return ownedBy(did, subject) ? { record, reason: record.collection === 'app.bsky.feed.like' ? 'like' : 'repost', reasonSubject: subject } : null;
    }
    case 'app.bsky.graph.follow':
      return value.subject === did ? { record, reason: 'follow' } : null;
    default:
      return null;
  }
}

const REASONS = ['like', 'repost', 'follow', 'mention', 'reply', 'quote', 'starterpack-joined', 'verified', 'unverified', 'like-via-repost', 'repost-via-repost', 'subscribed-post'];

/** GET app.bsky.notification.listNotifications?limit&cursor&reasons&seenAt: newest first. */
export function listNotifications(ctx: RouteContext): unknown {
  const { account } = blueskyAuth(ctx);
  const limit = intParam(ctx, 'limit', 50, 1, 100);
  const reasons = many(ctx, 'reasons');
  const unknown = reasons.find((r) => !REASONS.includes(r));
  if (unknown) throw invalidRequest(`reasons must be one of ${REASONS.join(', ')}`);
  const cursor = ctx.query.cursor;
  const key = (n: Notification) => `${String(n.record.indexedAt).padStart(15, '0')}|${n.record.uri}`;
  const all = records(ctx.state)
    .map((r) => notificationOf(r, account.did))
    .filter((n): n is Notification => n !== null && (reasons.length === 0 || reasons.includes(n.reason)))
    .sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0))
    .filter((n) => !cursor || key(n) < cursor);
  const page = all.slice(0, limit);
  const last = page.at(-1);
  return {
    notifications: page.map((n) => {
      const author = ctx.state.people.blueskyAccounts.get(n.record.did);
      return {
        uri: n.record.uri,
        cid: n.record.cid,
        author: author ? profileBasic(author) : { did: n.record.did, handle: 'handle.invalid' },
        reason: n.reason,
        ...(n.reasonSubject ? { reasonSubject: n.reasonSubject } : {}),
        record: n.record.value,
        isRead: n.record.indexedAt <= account.seenAt,
        indexedAt: iso(n.record.indexedAt),
        labels: [],
      };
    }),
    ...(last && all.length > limit ? { cursor: key(last) } : {}),
    ...(account.seenAt ? { seenAt: iso(account.seenAt) } : {}),
    priority: false,
  };
}

/** POST app.bsky.notification.updateSeen {seenAt}. */
export function updateSeen(ctx: RouteContext): unknown {
  const { account } = blueskyAuth(ctx);
  const seenAt = field(ctx.body, 'seenAt');
  const ms = typeof seenAt === 'string' ? Date.parse(seenAt) : Number.NaN;
  if (Number.isNaN(ms)) throw invalidRequest('Input/seenAt must be an valid atproto datetime (both RFC-3339 and ISO-8601)');
  account.seenAt = Math.max(account.seenAt, ms);
  return ctx.reply.status(200).send();
}
