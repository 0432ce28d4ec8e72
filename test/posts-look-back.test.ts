// An interrupted call on a busy account (create-once.ts, look-back.ts), on both stores: the
// sandbox answers 503 to the publishing call, the test makes the post on the platform itself (as
// the platform would have before the answer was lost), then makes many more posts on the same
// account through the platform's API. The look must page back past them to find the post and
// adopt it, sending nothing again; when the posts are more than a look reads (10 pages of 100),
// the target fails saying whether it went through could not be confirmed, and nothing is sent
// again until the user publishes the post again.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { addMetaAccount } from './posts-meta-support.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { addAccount, json, lostAnswerTools, settled, ShiftClock, startPostsApp, type PostsApp } from './posts-support.ts';


const BUSY = 150;
/** Threads allows 250 posts a day. */
const BUSY_THREADS = 120;
/** TikTok lists 20 videos a page. */
const BUSY_TIKTOK = 30;
const PAST_THE_BOUND = 1_050;
const AGENT = 'web:socialapi-tests:1.0 (by /u/tests)';

for (const dialect of DIALECTS) {
  describe(`posts: an interrupted call on a busy account [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let key: string;
    let org: string;
    let files: FileServer;
    const clock = new ShiftClock();

    before(async () => {
      t = await startPostsApp(dialect, { clock });
      ({ key, organizationId: org } = await t.tenant());
      // More reddit calls than its default window allows: the test's own posts count too.
      t.sandbox.updateSettings({ limits: { redditRequestsPerWindow: 10_000 } });
      // An audited TikTok app may post publicly: private posts could not be looked for.
      t.sandbox.configureApp({ platform: 'tiktok', clientId: 'tiktok-client', audited: true });
      files = await fileServer({ '/c.mp4': { body: samples.mp4 } });
    });
    after(async () => {
      await t.close();
      await files.close();
    });

    const { sandboxUrl, targetRow, mark, calls, publishNow, firstFailure } = lostAnswerTools(() => t, () => key);


    /** Moves the service's clock and the platform's to `at` (they agree, as real clocks roughly do), and lets the worker run. */
    function runAt(at: number | null): void {
      const delta = (at ?? 0) - clock.now() + 1;
      clock.offset += delta;
      t.sandbox.clock.advance(delta);
      t.worker?.wake();
    }

    /** Runs the retry of a target whose create-once call is marked: its fate unknown. */
    async function retryNow(targetId: string): Promise<void> {
      const row = await targetRow(targetId);
      assert.match(row.progress, /"inflight":\{"/, 'the call is marked: its fate is unknown');
      runAt(row.next_attempt_at);
    }

    /** Runs `count` calls, 25 at a time. */
    async function many(count: number, call: (i: number) => Promise<Response>): Promise<void> {
      for (let i = 0; i < count; i += 25) {
        const batch = await Promise.all(Array.from({ length: Math.min(25, count - i) }, (_, j) => call(i + j)));
        for (const res of batch) assert.equal(res.status, 200, `a post of the busy account: HTTP ${res.status}`);
      }
    }

    const redditSubmit = (token: string, title: string) =>
      fetch(sandboxUrl('oauth.reddit.com', '/api/submit'), {
        method: 'POST',
        headers: { authorization: `bearer ${token}`, 'user-agent': AGENT },
        body: new URLSearchParams({ api_type: 'json', sr: 'sandbox', kind: 'self', title, text: '' }),
      });

    const feedPost = (pageId: string, token: string, message: string) =>
      fetch(sandboxUrl('graph.facebook.com', `/v24.0/${pageId}/feed`), { method: 'POST', body: new URLSearchParams({ access_token: token, message }) });

    /** A reddit target whose submit's answer is lost after reddit made it, then `others` more submissions. */
    async function lostRedditSubmit(content: string, others: number) {
      const acc = await addAccount(t, org, 'reddit');
      t.sandbox.faults.add({ host: 'oauth.reddit.com', path: '/api/submit', kind: 'server_error', status: 503, times: 1 });
      const start = mark();
      const { postId, targetId } = await publishNow(content, [{ accountId: acc.id, platformSpecificData: { subreddit: 'sandbox' } }]);
      await firstFailure(targetId);
      const made = await redditSubmit(acc.token, content);
      const name = ((await made.json()) as { json: { data: { name: string } } }).json.data.name;
      await many(others, (i) => redditSubmit(acc.token, `Busy ${i} ${content}`));
      const looks = mark();
      await retryNow(targetId);
      return { postId, targetId, name, start, looks, submits: () => calls('oauth.reddit.com', start, 'POST', /^\/api\/submit$/).length };
    }

    /** A facebook target whose feed post's answer is lost after the Page got it, then `others` more feed posts. */
    async function lostFeedPost(content: string, others: number) {
      const acc = await addMetaAccount(t, org, 'facebook');
      t.sandbox.faults.add({ host: 'graph.facebook.com', path: `/${acc.pageId}/feed`, method: 'POST', kind: 'server_error', status: 503, times: 1 });
      const { postId, targetId } = await publishNow(content, [{ accountId: acc.id }]);
      await firstFailure(targetId);
      const made = await feedPost(acc.pageId, acc.token, content);
      const fbPostId = ((await made.json()) as { id: string }).id;
      await many(others, (i) => feedPost(acc.pageId, acc.token, `Busy ${i} ${content}`));
      const looks = mark();
      await retryNow(targetId);
      const copies = () => [...t.sandbox.meta.fbPosts.values()].filter((p) => p.message === content).length;
      return { postId, fbPostId, pageId: acc.pageId, looks, copies };
    }

    const tiktokInit = (token: string, title: string) =>
      fetch(sandboxUrl('open.tiktokapis.com', '/v2/post/publish/video/init/'), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, ...json },
        body: JSON.stringify({ post_info: { title, privacy_level: 'FOLLOWER_OF_CREATOR' }, source_info: { source: 'PULL_FROM_URL', video_url: `${files.url}/c.mp4` } }),
      });

    /** A Threads text post made through the API: a container, then threads_publish. */
    async function threadsPost(userId: string, token: string, text: string): Promise<string> {
      const post = (path: string, form: Record<string, string>) => fetch(sandboxUrl('graph.threads.net', `/v1.0/${userId}${path}`), { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: new URLSearchParams(form) });
      const container = ((await (await post('/threads', { media_type: 'TEXT', text })).json()) as { id: string }).id;
      const published = await post('/threads_publish', { creation_id: container });
      assert.equal(published.status, 200);
      return ((await published.json()) as { id: string }).id;
    }

    test(`threads: a publish whose answer was lost reads its id back from the second page, behind ${BUSY_THREADS} newer posts`, async () => {
      const acc = await addAccount(t, org, 'threads');
      const content = `Busy threads ${dialect}`;
      t.sandbox.faults.add({ host: 'graph.threads.net', path: '/*/threads_publish', method: 'POST', kind: 'server_error', status: 503, times: 1 });
      const { postId, targetId } = await publishNow(content, [{ accountId: acc.id }]);
      const row = await firstFailure(targetId);
      const container = (JSON.parse(row.progress) as { units: Array<{ container: string }> }).units[0]?.container ?? '';
      const made = await fetch(sandboxUrl('graph.threads.net', `/v1.0/${acc.userId}/threads_publish`), { method: 'POST', headers: { authorization: `Bearer ${acc.token}` }, body: new URLSearchParams({ creation_id: container }) });
      const mediaId = ((await made.json()) as { id: string }).id;
      for (let i = 0; i < BUSY_THREADS; i++) await threadsPost(acc.userId, acc.token, `Busy ${i} ${content}`);
      const looks = mark();
      runAt(row.next_attempt_at);
      const post = await settled(t, key, postId);
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.equal(post.targets[0]?.platformPostId, mediaId, 'the id read back, not left empty');
      assert.equal([...t.sandbox.threads.posts.values()].filter((p) => p.text === content).length, 1);
      assert.equal(calls('graph.threads.net', looks, 'POST', /\/threads_publish$/).length, 0, 'not published again');
      const pages = calls('graph.threads.net', looks, 'GET', new RegExp(`/${acc.userId}/threads$`));
      assert.equal(pages.length, 2, 'two pages read');
      assert.ok(pages[1]?.query.after, 'the second page asked with the first page’s cursor');
    });

    test(`tiktok: the lost init is found on the second page of video.list, behind ${BUSY_TIKTOK} newer videos, and nothing is sent again`, async () => {
      const content = `Busy tiktok ${dialect}`;
      const acc = await addAccount(t, org, 'tiktok');
      t.sandbox.faults.add({ host: 'open.tiktokapis.com', path: '/v2/post/publish/video/init', kind: 'server_error', status: 503, times: 1 });
      const start = mark();
      const { postId, targetId } = await publishNow(content, [{ accountId: acc.id, platformSpecificData: { privacyLevel: 'FOLLOWER_OF_CREATOR', mediaUrl: `${files.url}/c.mp4` } }]);
      await firstFailure(targetId);
      assert.equal((await tiktokInit(acc.token, content)).status, 200);
      for (let i = 0; i < BUSY_TIKTOK; i++) {
        // One millisecond apart: video.list's cursor is a creation time in ms.
        t.sandbox.clock.advance(1);
        assert.equal((await tiktokInit(acc.token, `Busy ${i} ${content}`)).status, 200);
      }
      await t.sandbox.idle();
      const looks = mark();
      await retryNow(targetId);
      const post = await settled(t, key, postId);
      assert.equal(post.status, 'published', JSON.stringify(post));
      const lost = [...t.sandbox.tiktok.publishes.values()].filter((p) => p.title === content);
      assert.equal(lost.length, 1, 'one publish with the content');
      assert.equal(post.targets[0]?.platformPostId, String(lost[0]?.postId));
      assert.equal(calls('open.tiktokapis.com', start, 'POST', /\/video\/init\/?$/).length, 2 + BUSY_TIKTOK, 'the lost init, the test’s own and the busy ones: none sent again');
      const pages = calls('open.tiktokapis.com', looks, 'POST', /\/video\/list\/?$/);
      assert.equal(pages.length, 2, 'two pages read');
      assert.equal((pages[0]?.body as { cursor?: unknown }).cursor, undefined);
      assert.equal(typeof (pages[1]?.body as { cursor?: unknown }).cursor, 'number', 'the second page asked from the first page’s cursor');
    });

    test(`reddit: the lost submit is found on the second page, behind ${BUSY} newer submissions, and nothing is sent again`, async () => {
      const content = `Busy reddit ${dialect}`;
      const lost = await lostRedditSubmit(content, BUSY);
      const post = await settled(t, key, lost.postId);
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.equal(post.targets[0]?.platformPostId, lost.name);
      assert.equal(post.targets[0]?.attempts, 2);
      assert.equal(lost.submits(), 2 + BUSY, 'the lost submit, the test’s own and the busy ones: none sent again');
      const pages = calls('oauth.reddit.com', lost.looks, 'GET', /\/submitted$/);
      assert.equal(pages.length, 2, 'two pages read');
      assert.equal(pages[0]?.query.after, undefined);
      assert.match(String(pages[1]?.query.after), /^t3_/, 'the second page asked after the first page’s last link');
      assert.equal(String(pages[1]?.query.count), '100');
    });

    test(`reddit: with ${PAST_THE_BOUND} newer submissions the look stops at 10 pages, the target fails unconfirmed and nothing is sent again; publishing again sends it`, async () => {
      const content = `Too busy reddit ${dialect}`;
      const lost = await lostRedditSubmit(content, PAST_THE_BOUND);
      const failed = await settled(t, key, lost.postId);
      assert.equal(failed.status, 'failed', JSON.stringify(failed));
      assert.match(failed.targets[0]?.error ?? '', /cut off, and whether it went through could not be confirmed \(the account made more than 1000 posts since the call began.*not sent again, to avoid a duplicate/);
      assert.equal((await targetRow(failed.targets[0]?.id ?? '')).error, failed.targets[0]?.error, 'the stored error says so');
      assert.equal(calls('oauth.reddit.com', lost.looks, 'GET', /\/submitted$/).length, 10, 'ten pages read, no more');
      assert.equal(lost.submits(), 2 + PAST_THE_BOUND, 'none sent again');
      // The user has checked the account and publishes the post again: the call is made again.
      const again = await fetch(`${t.url}/api/v1/posts/${lost.postId}/publish`, { method: 'POST', headers: { authorization: `Bearer ${key}`, ...json }, body: '{}' });
      assert.equal(again.status, 200);
      const post = await settled(t, key, lost.postId);
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.notEqual(post.targets[0]?.platformPostId, lost.name);
      assert.equal(lost.submits(), 3 + PAST_THE_BOUND, 'sent once more, on the user’s word');
    });

    test(`facebook: the lost feed post is found on the second page, behind ${BUSY} newer posts, and nothing is sent again`, async () => {
      const content = `Busy facebook ${dialect}`;
      const lost = await lostFeedPost(content, BUSY);
      const post = await settled(t, key, lost.postId);
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.equal(post.targets[0]?.platformPostId, lost.fbPostId);
      assert.equal(post.targets[0]?.attempts, 2);
      assert.equal(lost.copies(), 1, 'one feed post with the content');
      assert.equal(calls('graph.facebook.com', lost.looks, 'POST', /\/feed$/).length, 0, 'no feed post sent again');
      const pages = calls('graph.facebook.com', lost.looks, 'GET', new RegExp(`/${lost.pageId}/feed$`));
      assert.equal(pages.length, 2, 'two pages read');
      assert.equal(pages[0]?.query.after, undefined);
      assert.ok(pages[1]?.query.after, 'the second page asked with the first page’s `after` cursor');
      assert.ok(pages.every((p) => p.query.since !== undefined), 'each page bounded by since');
    });

    test(`facebook: with ${PAST_THE_BOUND} newer feed posts the look stops at 10 pages and the target fails unconfirmed, nothing sent again`, async () => {
      const content = `Too busy facebook ${dialect}`;
      const lost = await lostFeedPost(content, PAST_THE_BOUND);
      const failed = await settled(t, key, lost.postId);
      assert.equal(failed.status, 'failed', JSON.stringify(failed));
      assert.match(failed.targets[0]?.error ?? '', /could not be confirmed \(the account made more than 1000 posts since the call began.*not sent again/);
      assert.equal(calls('graph.facebook.com', lost.looks, 'GET', new RegExp(`/${lost.pageId}/feed$`)).length, 10, 'ten pages read, no more');
      assert.equal(calls('graph.facebook.com', lost.looks, 'POST', /\/feed$/).length, 0, 'no feed post sent again');
      assert.equal(lost.copies(), 1);
    });
  });
}
