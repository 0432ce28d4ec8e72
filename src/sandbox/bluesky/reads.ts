// The app.bsky.* reads the PDS proxies to the AppView (bluesky.md §6), from what the AppView has
// seen (views.ts): threads, posts with their counts and the caller's own like and repost
// (`viewer`), author feeds, profiles. A thread answers its root's threadgate beside it
// (`threadgate`), as getPostThread does: the replies it hides are still in `replies`, and clients
// hide them by its `hiddenReplies`.
import type { RouteContext } from '../core/router.ts';
import { invalidRequest, xrpcError } from './errors.ts';
import { findAccount, type BlueskyAccount } from './people.ts';
import { atUri } from './records.ts';
import { blueskyAuth } from './sessions.ts';
import type { RepoRecord } from './store.ts';
import type { SandboxState } from '../core/state.ts';
import { field, findPost, intParam, iso, many, POST, postView, profileBasic, records, refUri, type Json } from './views.ts';

const notFoundPost = (uri: string) => ({ $type: 'app.bsky.feed.defs#notFoundPost', uri, notFound: true });

function replies(state: SandboxState, uri: string): RepoRecord[] {
  return records(state)
    .filter((r) => r.collection === POST && refUri(r.value.reply, 'parent') === uri)
    .sort((a, b) => a.indexedAt - b.indexedAt);
}

function threadNode(state: SandboxState, record: RepoRecord, depth: number, viewerDid: string): Json {
  return {
    $type: 'app.bsky.feed.defs#threadViewPost',
    post: postView(state, record, viewerDid),
    replies: depth > 0 ? replies(state, record.uri).map((r) => threadNode(state, r, depth - 1, viewerDid)) : [],
  };
}

function withParents(state: SandboxState, node: Json, record: RepoRecord, height: number, viewerDid: string): Json {
  const parentUri = refUri(record.value.reply, 'parent');
  if (!parentUri || height <= 0) return node;
  const parent = findPost(state, parentUri);
  if (!parent) return { ...node, parent: notFoundPost(parentUri) };
  return { ...node, parent: withParents(state, { $type: 'app.bsky.feed.defs#threadViewPost', post: postView(state, parent, viewerDid) }, parent, height - 1, viewerDid) };
}

/** GET app.bsky.feed.getPostThread?uri&depth&parentHeight. */
export function getPostThread(ctx: RouteContext): unknown {
  const viewer = blueskyAuth(ctx).account.did;
  const uri = ctx.query.uri;
  if (!uri) throw invalidRequest('Params must have the property "uri"');
  const depth = intParam(ctx, 'depth', 6, 0, 1000);
  const parentHeight = intParam(ctx, 'parentHeight', 80, 0, 1000);
  const record = findPost(ctx.state, uri);
  if (!record) throw xrpcError(400, 'NotFound', `Post not found: ${uri}`);
  const thread = withParents(ctx.state, threadNode(ctx.state, record, depth, viewer), record, parentHeight, viewer);
  const rootUri = refUri(record.value.reply, 'root') ?? record.uri;
  const root = findPost(ctx.state, rootUri);
  const gate = root ? ctx.state.bluesky.records.get(atUri(root.did, 'app.bsky.feed.threadgate', root.rkey)) : undefined;
  return { thread, ...(gate ? { threadgate: { uri: gate.uri, cid: gate.cid, record: gate.value, lists: [] } } : {}) };
}

/** GET app.bsky.feed.getPosts?uris (up to 25); unknown ones are left out. */
export function getPosts(ctx: RouteContext): unknown {
  const viewer = blueskyAuth(ctx).account.did;
  const uris = many(ctx, 'uris');
  if (uris.length === 0) throw invalidRequest('Params must have the property "uris"');
  if (uris.length > 25) throw invalidRequest('uris must not have more than 25 elements');
  return { posts: uris.flatMap((uri) => {
    const record = findPost(ctx.state, uri);
    return record ? [postView(ctx.state, record, viewer)] : [];
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
  const viewer = blueskyAuth(ctx).account.did;
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
    return { post: postView(ctx.state, r, viewer), ...(parent && root ? { reply: { root: postView(ctx.state, root, viewer), parent: postView(ctx.state, parent, viewer) } } : {}) };
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
