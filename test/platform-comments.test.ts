// The comments capability of the adapters (issue 14, first step) over real HTTP against a
// standalone sandbox: each platform's list (paging, replies after their parent, own comments),
// reply and top-level comment, hide, like and delete where the platform has them, instagram
// mentions; what reached the sandbox (its journal), the state there after the call, and platform
// errors mapped by each platform's table. No database: adapters take credentials as stored.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GRAPH_VERSION, type PlatformContext } from '../src/platforms/context.ts';
import { memoryCounters } from '../src/platforms/counters.ts';
import { parseConfig } from '../src/config.ts';
import { sandboxApp } from '../src/platforms/registry.ts';
import { PlatformError } from '../src/platforms/errors.ts';
import { facebookAdapter } from '../src/platforms/facebook/index.ts';
import { createPlatformHttp } from '../src/platforms/http.ts';
import { instagramAdapter } from '../src/platforms/instagram/index.ts';
import { DEFAULT_REDDIT_AGENT, redditAdapter } from '../src/platforms/reddit/index.ts';
import { threadsAdapter } from '../src/platforms/threads/index.ts';
import type { AccountCredentials, PlatformAdapter } from '../src/platforms/types.ts';
import { startSandbox, type RunningSandbox } from '../src/sandbox/index.ts';
import type { SandboxState } from '../src/sandbox/state.ts';

let sb: RunningSandbox;
let state: SandboxState;
let ctx: PlatformContext;
let n = 0;

before(async () => {
  sb = await startSandbox({ seed: 'test' });
  state = sb.state;
  ctx = {
    http: createPlatformHttp({ base: sb.url, userAgent: 'socialapi-test/1.0' }),
    apps: parseConfig({ SANDBOX: '1' }).platforms.apps,
    graphVersion: GRAPH_VERSION,
    metaWebhookVerifyToken: '',
    sandbox: true,
    counters: memoryCounters(),
  };
});
after(() => sb.close());

function credentials(platformUserId: string, accessToken: string, metadata: Record<string, unknown> = {}): AccountCredentials {
  return { platformUserId, accessToken, refreshToken: null, expiresAt: null, scopes: [], metadata };
}

const control = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
  const res = await fetch(`${sb.url}/_sandbox/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as Record<string, unknown>;
  assert.equal(res.status, 200, JSON.stringify(json));
  return json;
};

const journal = (host: string, path: string, after = 0) => state.journal.list({ host, path, after });
const lastSeq = () => state.journal.list({}).at(-1)?.seq ?? 0;

async function rejects(run: () => Promise<unknown>, kind: string): Promise<PlatformError> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof PlatformError, String(error));
    assert.equal(error.kind, kind, error.message);
    return error;
  }
  assert.fail(`expected a ${kind} PlatformError`);
}

function need<T>(value: T | undefined, what: string): T {
  assert.ok(value, `${what} is offered`);
  return value;
}

function token(platform: 'reddit' | 'threads' | 'instagram' | 'facebook', subjectId: string, scopes: string[], extra: { type?: 'user' | 'page'; userId?: string; pageIds?: string[]; clientId?: string } = {}): string {
  const value = `${platform}-comments-${++n}-${'x'.repeat(12)}`;
  state.issueToken({ value, platform, type: extra.type ?? 'user', clientId: extra.clientId ?? `${platform}-client`, subjectId, userId: extra.userId ?? subjectId, scopes, declined: [], pageIds: extra.pageIds ?? [], ttlSeconds: 86_400, longLived: true });
  return value;
}

describe('reddit comments', () => {
  let adapter: PlatformAdapter<'reddit'>;
  let account: AccountCredentials;
  let link: string;

  before(async () => {
    adapter = redditAdapter(ctx, { userAgent: DEFAULT_REDDIT_AGENT });
    const user = state.addRedditUser();
    account = credentials(user.id, token('reddit', user.id, ['identity', 'submit', 'read', 'edit']));
    const res = await fetch(`${sb.url}/oauth.reddit.com/api/submit`, {
      method: 'POST',
      headers: { authorization: `bearer ${account.accessToken}`, 'user-agent': DEFAULT_REDDIT_AGENT },
      body: new URLSearchParams({ api_type: 'json', sr: 'sandbox', kind: 'self', title: 'Comments here', text: 'hello' }),
    });
    link = String(((await res.json()) as { json: { data: { name: string } } }).json.data.name);
  });

  test('a person comments; the tree lists oldest first with replies after their parent; own comments are marked', async () => {
    const first = await control('reddit/comments', { thingId: link, text: 'first!', from: { username: 'dana_w' } });
    const second = await control('reddit/comments', { thingId: link, text: 'second' });
    const reply = await need(adapter.commentWriter, 'writer').reply(account, String(first.id), 'thanks, Dana');
    const top = await need(adapter.commentWriter, 'writer').comment(account, link, 'a note from the author');
    const sent = journal('oauth.reddit.com', '/api/comment').at(-1);
    assert.deepEqual(sent?.body, { api_type: 'json', thing_id: link, text: 'a note from the author' });
    assert.match(reply.id, /^t1_/);

    const seq = lastSeq();
    const page = await need(adapter.commentReader, 'reader').list(account, link, { limit: 25, after: null });
    assert.deepEqual(
      page.comments.map((c) => [c.id, c.parentId, c.text, c.username, c.isOwn]),
      [
        [first.id, null, 'first!', 'dana_w', false],
        [reply.id, first.id, 'thanks, Dana', state.people.redditUsers.get(account.platformUserId)?.name, true],
        [second.id, null, 'second', 'sandbox_commenter', false],
        [top.id, null, 'a note from the author', state.people.redditUsers.get(account.platformUserId)?.name, true],
      ],
    );
    assert.equal(page.after, null);
    assert.ok(page.comments.every((c) => c.platform === 'reddit' && c.platformPostId === link && typeof c.createdAt === 'number' && !c.hidden));
    const read = journal('oauth.reddit.com', '/comments/', seq).at(-1);
    assert.equal(read?.path, `/comments/${link.slice(3)}`);
    assert.equal(read?.query.sort, 'old');
  });

  test('the tree stops at limit with a more stub; a page is `limit` top-level comments with their replies, and its cursor goes on', async () => {
    const res = await fetch(`${sb.url}/oauth.reddit.com/comments/${link.slice(3)}?sort=old&limit=1`, { headers: { authorization: `bearer ${account.accessToken}`, 'user-agent': DEFAULT_REDDIT_AGENT } });
    const [linkListing, comments] = (await res.json()) as Array<{ data: { children: Array<{ kind: string; data: Record<string, unknown> }> } }>;
    assert.equal(linkListing?.data.children[0]?.data.name, link);
    assert.deepEqual(comments?.data.children.map((c) => c.kind), ['t1', 'more']);
    assert.equal(comments?.data.children[1]?.data.count, 2);
    const reader = need(adapter.commentReader, 'reader');
    const page = await reader.list(account, link, { limit: 1, after: null });
    assert.deepEqual(page.comments.map((c) => c.text), ['first!', 'thanks, Dana']);
    assert.equal(page.after, page.comments[0]?.id);
    const next = await reader.list(account, link, { limit: 5, after: page.after });
    assert.deepEqual(next.comments.map((c) => c.text), ['second', 'a note from the author']);
    assert.equal(next.after, null);
  });

  test('errors by the reddit table: an unknown parent, a missing scope, an expired token', async () => {
    const writer = need(adapter.commentWriter, 'writer');
    const unknown = await rejects(() => writer.reply(account, 't1_zzzzzz', 'hello?'), 'invalid');
    assert.equal(unknown.details.code, 'NO_THING_ID');
    const noRead = credentials(account.platformUserId, token('reddit', account.platformUserId, ['identity', 'submit']));
    await rejects(() => need(adapter.commentReader, 'reader').list(noRead, link, { limit: 5, after: null }), 'permission');
    const expired = credentials(account.platformUserId, token('reddit', account.platformUserId, ['identity', 'submit', 'read']));
    state.expireToken(expired.accessToken);
    await rejects(() => writer.reply(expired, link, 'late'), 'auth');
  });

  test('reddit offers no hide, like, delete or mentions', () => {
    assert.equal(adapter.commentHider, undefined);
    assert.equal(adapter.commentLiker, undefined);
    assert.equal(adapter.commentRemover, undefined);
    assert.equal(adapter.mentionReader, undefined);
  });
});

const IG_FB_SCOPES = ['pages_show_list', 'pages_read_engagement', 'pages_manage_engagement', 'instagram_basic', 'instagram_manage_comments'];
const IG_LOGIN_SCOPES = ['instagram_business_basic', 'instagram_business_manage_comments'];

for (const login of ['facebook', 'instagram'] as const) {
  describe(`instagram comments (${login} login)`, () => {
    let adapter: PlatformAdapter<'instagram'>;
    let account: AccountCredentials;
    let mediaId: string;
    const host = login === 'facebook' ? 'graph.facebook.com' : 'graph.instagram.com';

    before(() => {
      adapter = instagramAdapter(ctx);
      const { user, pages, instagram } = state.addFacebookUser({ pages: [{ instagram: {} }] });
      const page = pages[0];
      const ig = instagram[0];
      assert.ok(page && ig);
      account =
        login === 'facebook'
          ? credentials(ig.id, token('facebook', page.id, IG_FB_SCOPES, { type: 'page', userId: user.id, pageIds: [page.id], clientId: sandboxApp('meta').clientId }), { login, pageId: page.id })
          : credentials(ig.id, token('instagram', ig.id, IG_LOGIN_SCOPES, { clientId: sandboxApp('instagram').clientId }), { login });
      mediaId = state.ids.numeric('ig-media', '18', 17);
      state.meta.igMedia.set(mediaId, {
        id: mediaId, accountId: ig.id, username: ig.username, containerId: null, mediaType: 'IMAGE', productType: 'FEED', caption: 'Fresh bread',
        mediaUrl: 'https://sandbox.invalid/media/bread.jpg', thumbnailUrl: null, childIds: [], isCarouselChild: false, publishedAt: state.clock.now(),
        shortcode: state.ids.opaque('ig-shortcode', 11), commentEnabled: true, userTags: [], collaborators: [], altText: null, locationId: null, likeCount: 0,
      });
    });

    test('list: newest first, 50 a page at most, replies after their parent with every field; paging by cursor', async () => {
      const first = await control('meta/comments', { objectId: mediaId, message: 'how much?', from: { username: 'dana.w' } });
      state.clock.advance(1000);
      const second = await control('meta/comments', { objectId: mediaId, message: 'lovely' });
      const writer = need(adapter.commentWriter, 'writer');
      const reply = await writer.reply(account, String(first.id), 'five euros');
      const sent = journal(host, `/${String(first.id)}/replies`).at(-1);
      assert.equal(sent?.method, 'POST');
      assert.deepEqual(sent?.body, { message: 'five euros' });

      const reader = need(adapter.commentReader, 'reader');
      const seq = lastSeq();
      const one = await reader.list(account, mediaId, { limit: 1, after: null });
      assert.deepEqual(one.comments.map((c) => [c.id, c.parentId, c.text]), [[second.id, null, 'lovely']]);
      assert.ok(one.after, 'a next page');
      assert.equal(journal(host, `/${mediaId}/comments`, seq).at(-1)?.query.limit, '1');
      const two = await reader.list(account, mediaId, { limit: 1, after: one.after });
      assert.deepEqual(
        two.comments.map((c) => [c.id, c.parentId, c.text, c.username, c.isOwn]),
        [
          [first.id, null, 'how much?', 'dana.w', false],
          [reply.id, first.id, 'five euros', state.people.instagramAccounts.get(account.platformUserId)?.username, true],
        ],
      );
      assert.equal(two.after, null);
      const all = await reader.list(account, mediaId, { limit: 100, after: null });
      assert.equal(journal(host, `/${mediaId}/comments`).at(-1)?.query.limit, '50');
      assert.equal(all.comments.length, 3);
    });

    test('top-level comment, hide and unhide, delete: the state in the sandbox after each', async () => {
      const writer = need(adapter.commentWriter, 'writer');
      const own = await writer.comment(account, mediaId, 'Open every day');
      assert.equal(state.meta.igComments.get(own.id)?.fromId, account.platformUserId);
      const theirs = String((await control('meta/comments', { objectId: mediaId, message: 'spam spam' })).id);
      const hider = need(adapter.commentHider, 'hider');
      await hider.setHidden(account, theirs, true);
      assert.equal(state.meta.igComments.get(theirs)?.hidden, true);
      assert.deepEqual(journal(host, `/${theirs}`).at(-1)?.body, { hide: 'true' });
      const listed = await need(adapter.commentReader, 'reader').list(account, mediaId, { limit: 50, after: null });
      assert.equal(listed.comments.find((c) => c.id === theirs)?.hidden, true);
      await hider.setHidden(account, theirs, false);
      assert.equal(state.meta.igComments.get(theirs)?.hidden, false);
      await need(adapter.commentRemover, 'remover').remove(account, theirs);
      assert.equal(state.meta.igComments.has(theirs), false);
      assert.equal(journal(host, `/${theirs}`).at(-1)?.method, 'DELETE');
      assert.equal(adapter.commentLiker, undefined, 'instagram has no comment likes');
    });

    test('mentions: media the account is tagged in', async () => {
      const tagged = await control('meta/mentions', { accountId: account.platformUserId, kind: 'tag', from: { username: 'bakery.fan' } });
      const mentions = await need(adapter.mentionReader, 'mentions').mentions(account, 25);
      assert.deepEqual(mentions.map((m) => [m.mediaId, m.username, m.platform]), [[tagged.mediaId, 'bakery.fan', 'instagram']]);
      const sent = journal(host, `/${account.platformUserId}/tags`).at(-1);
      assert.equal(sent?.query.limit, '25');
    });

    test('errors by the Graph table: a missing permission, an expired token', async () => {
      const reader = need(adapter.commentReader, 'reader');
      const narrow =
        login === 'facebook'
          ? credentials(account.platformUserId, token('facebook', String(account.metadata.pageId), ['pages_show_list', 'pages_read_engagement', 'instagram_basic'], { type: 'page', pageIds: [String(account.metadata.pageId)], clientId: sandboxApp('meta').clientId }), account.metadata)
          : credentials(account.platformUserId, token('instagram', account.platformUserId, ['instagram_business_basic'], { clientId: sandboxApp('instagram').clientId }), account.metadata);
      const missing = await rejects(() => reader.list(narrow, mediaId, { limit: 5, after: null }), 'permission');
      assert.equal(missing.details.code, 10);
      state.expireToken(narrow.accessToken);
      const expired = await rejects(() => need(adapter.commentWriter, 'writer').comment(narrow, mediaId, 'late'), 'auth');
      assert.equal(expired.details.code, 190);
    });
  });
}

describe('facebook Page comments', () => {
  let adapter: PlatformAdapter<'facebook'>;
  let account: AccountCredentials;
  let postId: string;
  const FB_SCOPES = ['pages_show_list', 'pages_manage_posts', 'pages_read_engagement', 'pages_manage_engagement', 'pages_read_user_content'];

  before(async () => {
    adapter = facebookAdapter(ctx);
    const { user, pages } = state.addFacebookUser({ pages: [{}] });
    const page = pages[0];
    assert.ok(page);
    account = credentials(page.id, token('facebook', page.id, FB_SCOPES, { type: 'page', userId: user.id, pageIds: [page.id], clientId: sandboxApp('meta').clientId }), { login: 'facebook' });
    const res = await fetch(`${sb.url}/graph.facebook.com/${GRAPH_VERSION}/${page.id}/feed`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.accessToken}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ message: 'Our new loaf' }),
    });
    postId = String(((await res.json()) as { id: string }).id);
  });

  test('list: oldest first, replies after their parent, username is from.name; paging', async () => {
    const first = await control('meta/comments', { objectId: postId, message: 'how much?', from: { name: 'Dana W' } });
    state.clock.advance(1000);
    const nested = await control('meta/comments', { objectId: String(first.id), message: 'me too', from: { name: 'Sam K' } });
    state.clock.advance(1000);
    const second = await control('meta/comments', { objectId: postId, message: 'yum', from: { name: 'Lee P' } });
    const reply = await need(adapter.commentWriter, 'writer').reply(account, String(first.id), 'Five euros');
    assert.deepEqual(journal('graph.facebook.com', `/${String(first.id)}/comments`).at(-1)?.body, { message: 'Five euros' });

    const reader = need(adapter.commentReader, 'reader');
    const one = await reader.list(account, postId, { limit: 1, after: null });
    assert.deepEqual(
      one.comments.map((c) => [c.id, c.parentId, c.text, c.username, c.isOwn]),
      [
        [first.id, null, 'how much?', 'Dana W', false],
        [nested.id, first.id, 'me too', 'Sam K', false],
        [reply.id, first.id, 'Five euros', state.people.pages.get(account.platformUserId)?.name, true],
      ],
    );
    const sent = journal('graph.facebook.com', `/${postId}/comments`).at(-1);
    assert.equal(sent?.query.filter, 'toplevel');
    assert.equal(sent?.query.limit, '1');
    assert.ok(one.after);
    const two = await reader.list(account, postId, { limit: 1, after: one.after });
    assert.deepEqual(two.comments.map((c) => c.id), [second.id]);
    assert.equal(two.after, null);
  });

  test('comment, hide, like and unlike once, delete: the state in the sandbox after each', async () => {
    const own = await need(adapter.commentWriter, 'writer').comment(account, postId, 'Ask us about it');
    assert.equal(state.meta.fbComments.get(own.id)?.fromId, account.platformUserId);
    const theirs = String((await control('meta/comments', { objectId: postId, message: 'buy followers here' })).id);
    await need(adapter.commentHider, 'hider').setHidden(account, theirs, true);
    assert.equal(state.meta.fbComments.get(theirs)?.hidden, true);
    assert.deepEqual(journal('graph.facebook.com', `/${theirs}`).at(-1)?.body, { is_hidden: 'true' });
    const liker = need(adapter.commentLiker, 'liker');
    await liker.setLiked(account, theirs, true);
    await liker.setLiked(account, theirs, true);
    assert.equal(state.meta.fbComments.get(theirs)?.likeCount, 1, 'a Page likes once');
    assert.equal(state.meta.fbComments.get(theirs)?.likedByPage, true);
    const listed = await need(adapter.commentReader, 'reader').list(account, postId, { limit: 25, after: null });
    assert.deepEqual(listed.comments.filter((c) => c.id === theirs).map((c) => [c.hidden, c.likeCount]), [[true, 1]]);
    await liker.setLiked(account, theirs, false);
    await liker.setLiked(account, theirs, false);
    assert.equal(state.meta.fbComments.get(theirs)?.likeCount, 0);
    assert.equal(journal('graph.facebook.com', `/${theirs}/likes`).at(-1)?.method, 'DELETE');
    await need(adapter.commentRemover, 'remover').remove(account, theirs);
    assert.equal(state.meta.fbComments.has(theirs), false);
    assert.equal(adapter.mentionReader, undefined);
  });

  test('errors by the Graph table: a missing permission, a user token, an expired token', async () => {
    const pageId = account.platformUserId;
    const readOnly = credentials(pageId, token('facebook', pageId, ['pages_show_list', 'pages_read_engagement'], { type: 'page', pageIds: [pageId], clientId: sandboxApp('meta').clientId }));
    const missing = await rejects(() => need(adapter.commentHider, 'hider').setHidden(readOnly, postId, true), 'permission');
    assert.equal(missing.details.code, 200);
    const userToken = credentials(pageId, token('facebook', 'someone', FB_SCOPES, { type: 'user', pageIds: [pageId], clientId: sandboxApp('meta').clientId }));
    await rejects(() => need(adapter.commentWriter, 'writer').comment(userToken, postId, 'hi'), 'auth');
    state.expireToken(readOnly.accessToken);
    await rejects(() => need(adapter.commentReader, 'reader').list(readOnly, postId, { limit: 5, after: null }), 'auth');
  });
});

describe('threads replies', () => {
  let adapter: PlatformAdapter<'threads'>;
  let account: AccountCredentials;
  let postId: string;
  const SCOPES = ['threads_basic', 'threads_content_publish', 'threads_read_replies', 'threads_manage_replies'];
  const graph = async (method: string, path: string, params: Record<string, string>) => {
    const res = await fetch(`${sb.url}/graph.threads.net/v1.0${path}`, { method, headers: { authorization: `Bearer ${account.accessToken}` }, body: new URLSearchParams(params) });
    return (await res.json()) as Record<string, unknown>;
  };

  before(async () => {
    adapter = threadsAdapter(ctx);
    const user = state.addThreadsUser();
    account = credentials(user.id, token('threads', user.id, SCOPES));
    const container = await graph('POST', `/${user.id}/threads`, { media_type: 'TEXT', text: 'Hello, threads' });
    postId = String((await graph('POST', `/${user.id}/threads_publish`, { creation_id: String(container.id) })).id);
  });

  test('a person replies; the list has top-level replies oldest first, each followed by the replies under it', async () => {
    const first = await control('threads/replies', { replyToId: postId, text: 'nice!', from: { username: 'dana.threads' } });
    state.clock.advance(1000);
    const second = await control('threads/replies', { replyToId: postId, text: 'where is this?' });
    state.clock.advance(1000);
    const reply = await need(adapter.commentWriter, 'writer').reply(account, String(first.id), 'thank you');
    const created = journal('graph.threads.net', `/${account.platformUserId}/threads`).filter((e) => e.path.endsWith('/threads')).at(-1);
    assert.deepEqual(created?.body, { media_type: 'TEXT', text: 'thank you', reply_to_id: first.id });
    assert.equal(journal('graph.threads.net', `/${account.platformUserId}/threads_publish`).at(-1)?.method, 'POST');
    assert.equal(state.threads.posts.get(reply.id)?.replyToId, first.id);

    const reader = need(adapter.commentReader, 'reader');
    const one = await reader.list(account, postId, { limit: 1, after: null });
    assert.deepEqual(
      one.comments.map((c) => [c.id, c.parentId, c.text, c.username, c.isOwn]),
      [
        [first.id, null, 'nice!', 'dana.threads', false],
        [reply.id, first.id, 'thank you', state.people.threadsUsers.get(account.platformUserId)?.username, true],
      ],
    );
    assert.equal(journal('graph.threads.net', `/${postId}/replies`).at(-1)?.query.reverse, 'false');
    assert.ok(one.after);
    const two = await reader.list(account, postId, { limit: 1, after: one.after });
    assert.deepEqual(two.comments.map((c) => [c.id, c.parentId]), [[second.id, null]]);
    assert.equal(two.after, null);
  });

  test('a top-level comment is a reply to the post; hide and unhide with manage_reply', async () => {
    const own = await need(adapter.commentWriter, 'writer').comment(account, postId, 'more soon');
    assert.equal(state.threads.posts.get(own.id)?.replyToId, postId);
    const theirs = String((await control('threads/replies', { replyToId: postId, text: 'rude words' })).id);
    const hider = need(adapter.commentHider, 'hider');
    await hider.setHidden(account, theirs, true);
    assert.equal(state.threads.posts.get(theirs)?.hidden, true);
    assert.deepEqual(journal('graph.threads.net', `/${theirs}/manage_reply`).at(-1)?.body, { hide: 'true' });
    const listed = await need(adapter.commentReader, 'reader').list(account, postId, { limit: 25, after: null });
    assert.equal(listed.comments.find((c) => c.id === theirs)?.hidden, true);
    await hider.setHidden(account, theirs, false);
    assert.equal(state.threads.posts.get(theirs)?.hidden, false);
    assert.equal(adapter.commentLiker, undefined);
    assert.equal(adapter.commentRemover, undefined);
    assert.equal(adapter.mentionReader, undefined);
  });

  test('errors by the Graph table: no threads_manage_replies, an expired token', async () => {
    const theirs = String((await control('threads/replies', { replyToId: postId, text: 'hmm' })).id);
    const narrow = credentials(account.platformUserId, token('threads', account.platformUserId, ['threads_basic', 'threads_read_replies']));
    const missing = await rejects(() => need(adapter.commentHider, 'hider').setHidden(narrow, theirs, true), 'permission');
    assert.equal(missing.details.code, 10);
    state.expireToken(narrow.accessToken);
    await rejects(() => need(adapter.commentReader, 'reader').list(narrow, postId, { limit: 5, after: null }), 'auth');
  });
});
