// Bluesky comments against the sandbox over HTTP (DESIGN "Comments and inbox", the bluesky row;
// bluesky.md §6), both stores: a post's replies read from its thread (ids are at:// URIs, replies
// under replies with their parent), a reply made with the root and parent strong refs, hiding
// through the post's thread gate (its reply rules kept), liking and unliking (the account's like
// found through the post view's viewer.like, or its like records when a view has none), deleting the
// account's own reply but not someone else's (refused before any call: the PDS would answer a
// foreign repository with 401, which reads as a lost session), a reply whose answer was lost
// made once when retried with its x-request-id, and another organization's post unknown.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { personReplies, publishedBluesky, recordsOf, type PublishedBluesky } from './bluesky-engagement-support.ts';
import { createPost, json, settled, startPostsApp, type PostsApp } from './posts-support.ts';

const TIMEOUT_MS = 1500;

interface Comment {
  id: string;
  platform: string;
  accountId: string;
  postId: string | null;
  platformPostId: string;
  text: string;
  username: string | null;
  parentId: string | null;
  hidden: boolean;
  likeCount: number;
  isOwn: boolean;
}
type Answer = { comments?: Comment[]; errors?: unknown[]; id?: string; ok?: boolean; error?: { message: string; code?: string } };

for (const dialect of DIALECTS) {
  describe(`bluesky comments [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let key: string;
    let mine: PublishedBluesky;

    before(async () => {
      t = await startPostsApp(dialect, { env: { PLATFORM_TIMEOUT_MS: String(TIMEOUT_MS) } });
      ({ key } = await t.tenant());
      mine = await publishedBluesky(t, key);
    });
    after(() => t.close());

    const api = async (method: string, path: string, body?: unknown, requestKey?: string): Promise<{ status: number; body: Answer }> => {
      const headers: Record<string, string> = { ...(body === undefined ? {} : json), ...(requestKey ? { 'x-request-id': requestKey } : {}) };
      const res = await t.request(`/api/v1${path}`, { key, method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      return { status: res.status, body: (await res.json()) as Answer };
    };
    const comments = async () => {
      const res = await api('GET', `/posts/${mine.postId}/comments`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.errors, []);
      return res.body.comments ?? [];
    };
    const mark = () => t.sandbox.journal.list().at(-1)?.seq ?? 0;
    const writesSince = (seq: number) =>
      t.sandbox.journal
        .list({ host: 'bsky.social', after: seq })
        .filter((e) => e.method === 'POST' && !e.path.includes('Session'))
        .map((e) => e.path.replace('/xrpc/com.atproto.repo.', ''));
    const path = (id: string) => encodeURIComponent(id);
    const ownPosts = async () => (await recordsOf(t, mine.person.did, 'app.bsky.feed.post')).filter((r) => r.uri !== mine.uri);

    test('the thread’s replies are the comments: at:// ids, handles, replies after their parent with its id', async () => {
      const top = await personReplies(t, mine.uri, 'Is it sourdough?');
      const under = await personReplies(t, top, 'It looks like it', 'reader.bsky.social');
      const other = await personReplies(t, mine.uri, 'See you at nine', 'reader.bsky.social');
      const listed = await comments();
      assert.deepEqual(
        listed.map((c) => [c.id, c.text, c.username, c.parentId, c.isOwn, c.hidden, c.platformPostId, c.postId, c.platform]),
        [
          [top, 'Is it sourdough?', 'friend.bsky.social', null, false, false, mine.uri, mine.postId, 'bluesky'],
          [under, 'It looks like it', 'reader.bsky.social', top, false, false, mine.uri, mine.postId, 'bluesky'],
          [other, 'See you at nine', 'reader.bsky.social', null, false, false, mine.uri, mine.postId, 'bluesky'],
        ],
      );
      assert.ok(t.sandbox.journal.list({ host: 'bsky.social', path: '/xrpc/app.bsky.feed.getPostThread' }).some((e) => e.query.depth === '10'));
      // GET /inbox/comments pages by top-level reply.
      const page = await api('GET', `/inbox/comments?postId=${mine.postId}&limit=1`);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      assert.deepEqual(page.body.comments?.map((c) => c.id), [top, under]);
    });

    test('a reply carries the thread root and the parent as strong refs; a comment on the post has the post as both', async () => {
      const theirs = await personReplies(t, mine.uri, 'Gluten free?');
      const replied = await api('POST', `/comments/${path(theirs)}/reply`, { platformPostId: mine.uri, text: 'Not yet, @friend.bsky.social!' });
      assert.equal(replied.status, 200, JSON.stringify(replied.body));
      const made = (await ownPosts()).find((r) => r.uri === replied.body.id);
      assert.ok(made, 'the reply is a post record of the account');
      const parent = t.sandbox.bluesky.records.get(theirs);
      const root = t.sandbox.bluesky.records.get(mine.uri);
      assert.deepEqual(made.value.reply, { root: { uri: mine.uri, cid: root?.cid }, parent: { uri: theirs, cid: parent?.cid } });
      assert.equal(made.value.text, 'Not yet, @friend.bsky.social!');
      assert.ok(JSON.stringify(made.value.facets).includes('app.bsky.richtext.facet#mention'), 'the handle became a mention facet');
      const onPost = await api('POST', '/inbox/comments', { accountId: mine.accountId, platformPostId: mine.uri, text: 'Thanks all' });
      assert.equal(onPost.status, 200, JSON.stringify(onPost.body));
      const comment = (await ownPosts()).find((r) => r.uri === onPost.body.id);
      assert.deepEqual(comment?.value.reply, { root: { uri: mine.uri, cid: root?.cid }, parent: { uri: mine.uri, cid: root?.cid } });
      const listed = await comments();
      assert.deepEqual(listed.filter((c) => c.isOwn).map((c) => [c.text, c.parentId]), [['Not yet, @friend.bsky.social!', theirs], ['Thanks all', null]]);
    });

    test('hiding puts the reply in the post’s thread gate (its rules kept); unhiding takes it out', async () => {
      const gated = await publishedBlueskyWithGate();
      const theirs = await personReplies(t, gated.uri, 'Spam spam');
      const hide = await api('POST', `/inbox/comments/${path(theirs)}/hide`, { accountId: gated.accountId });
      assert.equal(hide.status, 200, JSON.stringify(hide.body));
      const [gate] = await recordsOf(t, gated.person.did, 'app.bsky.feed.threadgate');
      assert.equal(gate?.uri.split('/').pop(), gated.uri.split('/').pop(), 'the gate’s key is the post’s');
      assert.deepEqual(gate?.value.hiddenReplies, [theirs]);
      assert.deepEqual(gate?.value.allow, [{ $type: 'app.bsky.feed.threadgate#followerRule' }]);
      const listed = await api('GET', `/inbox/comments?postId=${gated.postId}`);
      assert.deepEqual(listed.body.comments?.map((c) => [c.id, c.hidden]), [[theirs, true]]);
      const again = await api('POST', `/inbox/comments/${path(theirs)}/hide`, { accountId: gated.accountId });
      assert.equal(again.status, 200);
      assert.deepEqual((await recordsOf(t, gated.person.did, 'app.bsky.feed.threadgate'))[0]?.value.hiddenReplies, [theirs]);
      const unhide = await api('DELETE', `/inbox/comments/${path(theirs)}/hide?accountId=${gated.accountId}`);
      assert.equal(unhide.status, 200, JSON.stringify(unhide.body));
      const [after] = await recordsOf(t, gated.person.did, 'app.bsky.feed.threadgate');
      assert.deepEqual([after?.value.hiddenReplies, after?.value.allow], [[], [{ $type: 'app.bsky.feed.threadgate#followerRule' }]]);
      // A post without a gate gets one that hides and lets everyone reply (no `allow`).
      const open = await personReplies(t, mine.uri, 'Off topic');
      assert.equal((await api('POST', `/inbox/comments/${path(open)}/hide`, { accountId: mine.accountId })).status, 200);
      const [made] = await recordsOf(t, mine.person.did, 'app.bsky.feed.threadgate');
      assert.deepEqual([made?.value.post, made?.value.hiddenReplies, 'allow' in (made?.value ?? {})], [mine.uri, [open], false]);
    });

    async function publishedBlueskyWithGate(): Promise<PublishedBluesky> {
      const base = await publishedBluesky(t, key, 'Followers only');
      // A second post of the same account, with reply rules, so its gate exists before hiding.
      const res = await createPost(t, key, { content: 'Followers may reply', publishNow: true, platforms: [{ accountId: base.accountId, platformSpecificData: { replyControl: 'followers' } }] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const post = await settled(t, key, res.body.post.id);
      return { ...base, postId: post.id, uri: post.targets[0]?.platformPostId ?? '' };
    }

    /** What a like or an unlike of `uri` asked Bluesky since `seq`: its getPosts and every repository call. */
    const likeCallsSince = (seq: number, uri: string) =>
      t.sandbox.journal
        .list({ host: 'bsky.social', after: seq })
        .filter((e) => e.path.includes('com.atproto.repo.') || (e.path.endsWith('app.bsky.feed.getPosts') && e.query.uris === uri))
        .map((e) => e.path.replace(/^\/xrpc\/(com\.atproto\.repo|app\.bsky\.feed)\./, ''));
    const like = (uri: string) => api('POST', `/inbox/comments/${path(uri)}/like`, { accountId: mine.accountId });
    const unlike = (uri: string) => api('DELETE', `/inbox/comments/${path(uri)}/like?accountId=${mine.accountId}`);
    const likesOf = async (uri: string) => (await recordsOf(t, mine.person.did, 'app.bsky.feed.like')).filter((r) => r.value.subject?.uri === uri);

    test('like makes one like record of the reply, found again through the post view’s viewer.like; unlike deletes it', async () => {
      const theirs = await personReplies(t, mine.uri, 'Love this');
      let seq = mark();
      assert.equal((await like(theirs)).status, 200);
      assert.deepEqual(likeCallsSince(seq, theirs), ['getPosts', 'createRecord']);
      const made = await likesOf(theirs);
      assert.equal(made.length, 1);
      assert.equal(made[0]?.value.subject?.cid, t.sandbox.bluesky.records.get(theirs)?.cid);
      // Liking again: the view's viewer.like is the record made, so nothing is written.
      seq = mark();
      assert.equal((await like(theirs)).status, 200);
      assert.deepEqual(likeCallsSince(seq, theirs), ['getPosts']);
      assert.deepEqual((await likesOf(theirs)).map((r) => r.uri), [made[0]?.uri]);
      assert.equal((await comments()).find((c) => c.id === theirs)?.likeCount, 1);
      seq = mark();
      assert.equal((await unlike(theirs)).status, 200);
      assert.deepEqual(likeCallsSince(seq, theirs), ['getPosts', 'deleteRecord']);
      assert.deepEqual(await likesOf(theirs), []);
      // Unliking what is not liked: the newest likes are looked through too (the view may trail), and nothing is deleted.
      seq = mark();
      assert.equal((await unlike(theirs)).status, 200);
      assert.deepEqual(likeCallsSince(seq, theirs), ['getPosts', 'listRecords']);
    });

    test('an unlike right after a like, before the AppView has seen it, still deletes the like', async (c) => {
      const theirs = await personReplies(t, mine.uri, 'Crust goals');
      t.sandbox.updateSettings({ bluesky: { appViewLagMs: 2000 } });
      c.after(() => t.sandbox.updateSettings({ bluesky: { appViewLagMs: 0 } }));
      t.sandbox.clock.advance(2000);
      const seq = mark();
      assert.equal((await like(theirs)).status, 200);
      assert.equal((await likesOf(theirs)).length, 1);
      assert.equal((await unlike(theirs)).status, 200);
      assert.deepEqual(likeCallsSince(seq, theirs), ['getPosts', 'createRecord', 'getPosts', 'listRecords', 'deleteRecord']);
      assert.deepEqual(await likesOf(theirs), []);
    });

    test('a post view without viewer (as an unauthenticated read answers it) is settled through the account’s like records', async () => {
      const theirs = await personReplies(t, mine.uri, 'Lovely crumb');
      const record = t.sandbox.bluesky.records.get(theirs);
      assert.ok(record);
      const bare = { posts: [{ uri: theirs, cid: record.cid, author: { did: record.did, handle: 'friend.bsky.social' }, record: record.value, likeCount: 0, indexedAt: new Date().toISOString(), labels: [] }] };
      const viewerless = (times: number) => t.sandbox.faults.add({ host: 'bsky.social', path: '/xrpc/app.bsky.feed.getPosts', method: 'GET', kind: 'error', status: 200, body: bare, times });
      viewerless(2);
      let seq = mark();
      assert.equal((await like(theirs)).status, 200);
      assert.equal((await like(theirs)).status, 200);
      assert.deepEqual(likeCallsSince(seq, theirs), ['getPosts', 'listRecords', 'createRecord', 'getPosts', 'listRecords']);
      const made = await likesOf(theirs);
      assert.equal(made.length, 1);
      viewerless(1);
      seq = mark();
      assert.equal((await unlike(theirs)).status, 200);
      assert.deepEqual(likeCallsSince(seq, theirs), ['getPosts', 'listRecords', 'deleteRecord']);
      assert.deepEqual(await likesOf(theirs), []);
    });

    test('the account’s own reply is deleted; someone else’s is refused (403) without a platform call', async () => {
      const theirs = await personReplies(t, mine.uri, 'Delete me if you can');
      const own = await api('POST', '/inbox/comments', { accountId: mine.accountId, platformPostId: mine.uri, text: 'Oops, typo' });
      assert.equal(own.status, 200, JSON.stringify(own.body));
      const seq = mark();
      const refused = await api('DELETE', `/inbox/comments/${path(theirs)}?accountId=${mine.accountId}`);
      assert.deepEqual([refused.status, refused.body.error?.code], [403, 'missing_permission'], JSON.stringify(refused.body));
      assert.deepEqual(writesSince(seq), []);
      assert.ok(t.sandbox.bluesky.records.has(theirs));
      const deleted = await api('DELETE', `/inbox/comments/${path(own.body.id ?? '')}?accountId=${mine.accountId}`);
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      assert.deepEqual(writesSince(seq), ['deleteRecord']);
      assert.equal(t.sandbox.bluesky.records.has(own.body.id ?? ''), false);
      const account = await t.runtime.deps.store.db.selectFrom('accounts').select('status').where('id', '=', mine.accountId).executeTakeFirstOrThrow();
      assert.equal(account.status, 'active');
    });

    test('a reply whose answer was lost, retried with its x-request-id, makes one record', async () => {
      const theirs = await personReplies(t, mine.uri, 'Open on Sunday?');
      const text = 'Yes, from eight';
      const made = async () => (await ownPosts()).filter((r) => r.value.text === text);
      // createRecord is answered after the service stopped waiting: the record is made, the answer lost.
      t.sandbox.faults.add({ host: 'bsky.social', path: '/xrpc/com.atproto.repo.createRecord', method: 'POST', kind: 'delay', delayMs: TIMEOUT_MS + 1000, times: 1 });
      const first = await api('POST', `/comments/${path(theirs)}/reply`, { platformPostId: mine.uri, text }, 'bsky-reply-1');
      assert.equal(first.status, 502, JSON.stringify(first.body));
      await waitFor(async () => ((await made()).length === 1 ? true : null), 10_000, 'the delayed createRecord to land');
      const again = await api('POST', `/comments/${path(theirs)}/reply`, { platformPostId: mine.uri, text }, 'bsky-reply-1');
      assert.equal(again.status, 200, JSON.stringify(again.body));
      const records = await made();
      assert.deepEqual(records.map((r) => r.uri), [again.body.id]);
      const third = await api('POST', `/comments/${path(theirs)}/reply`, { platformPostId: mine.uri, text }, 'bsky-reply-1');
      assert.deepEqual([third.status, third.body], [200, again.body]);
      assert.equal((await made()).length, 1);
    });

    test('a reply whose answer was lost is found by its key in the same call: one record, answered 200', async () => {
      const theirs = await personReplies(t, mine.uri, 'Any croissants?');
      const text = 'Tomorrow morning';
      // createRecord lands just after the service stopped waiting; the look-up by its key comes after that.
      t.sandbox.faults.add({ host: 'bsky.social', path: '/xrpc/com.atproto.repo.createRecord', method: 'POST', kind: 'delay', delayMs: TIMEOUT_MS + 200, times: 1 });
      t.sandbox.faults.add({ host: 'bsky.social', path: '/xrpc/com.atproto.repo.getRecord', method: 'GET', kind: 'delay', delayMs: 1000, times: 1 });
      const seq = mark();
      const res = await api('POST', `/comments/${path(theirs)}/reply`, { platformPostId: mine.uri, text }, 'bsky-reply-2');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const made = (await ownPosts()).filter((r) => r.value.text === text);
      assert.deepEqual(made.map((r) => r.uri), [res.body.id]);
      assert.deepEqual(writesSince(seq), ['createRecord']);
      const rkey = res.body.id?.split('/').pop();
      assert.ok(t.sandbox.journal.list({ host: 'bsky.social', after: seq, path: '/xrpc/com.atproto.repo.getRecord' }).some((e) => e.query.rkey === rkey), 'looked up under the key it chose');
    });

    test('another organization’s post and account are unknown (404)', async () => {
      const other = await t.tenant();
      const theirs = await publishedBluesky(t, other.key, 'Another bakery');
      const reply = await personReplies(t, theirs.uri, 'Hello there');
      assert.equal((await api('GET', `/posts/${theirs.postId}/comments`)).status, 404);
      assert.equal((await api('POST', `/comments/${path(reply)}/reply`, { platformPostId: theirs.uri, text: 'Not ours' })).status, 404);
      assert.equal((await api('POST', `/inbox/comments/${path(reply)}/hide`, { accountId: theirs.accountId })).status, 404);
      assert.equal((await api('GET', `/inbox/comments?accountId=${theirs.accountId}&platformPostId=${encodeURIComponent(theirs.uri)}`)).status, 404);
      assert.equal((await recordsOf(t, mine.person.did, 'app.bsky.feed.post')).some((r) => r.value.text === 'Not ours'), false);
    });

    test('a reply longer than Bluesky allows is refused (400) before any write', async () => {
      const seq = mark();
      const res = await api('POST', '/inbox/comments', { accountId: mine.accountId, platformPostId: mine.uri, text: 'é'.repeat(301) });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.match(res.body.error?.message ?? '', /text: 301 graphemes, Bluesky allows 300/);
      assert.deepEqual(writesSince(seq), []);
    });
  });
}
