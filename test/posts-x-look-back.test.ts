// x exactly once when POST /2/tweets's answer is lost (X_READS=1): the retry looks through the
// account's posts and must recognise the one the lost call made although X answers its text
// changed (platforms/x.md §11): `&`, `<`, `>` as HTML entities, a bare host's link expanded with
// `http://`, and a post with media ending in a t.co link to its photo. Missing it would post twice.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { lostAnswerTools, settled, ShiftClock, startPostsApp, type PostsApp } from './posts-support.ts';
import { addXAccount } from './posts-x-support.ts';

for (const dialect of DIALECTS) {
  describe(`posts to x: the answer of POST /2/tweets lost, the look-back finds the post [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let files: FileServer;
    let key: string;
    let org: string;
    const clock = new ShiftClock();
    const TIMEOUT_MS = 1000;

    before(async () => {
      t = await startPostsApp(dialect, { clock, env: { PLATFORM_TIMEOUT_MS: String(TIMEOUT_MS), X_READS: '1' } });
      files = await fileServer({ '/a.jpg': { body: samples.jpeg } });
      ({ key, organizationId: org } = await t.tenant());
    });
    after(async () => {
      await t.close();
      await files.close();
    });

    const { mark, calls, publishNow, firstFailure } = lostAnswerTools(() => t, () => key);
    const postsOf = (userId: string) => [...t.sandbox.x.posts.values()].filter((p) => p.authorId === userId && !p.deleted);

    /** Publishes with POST /2/tweets answered too late, and checks that the retry adopted the one post X made. */
    async function lostAndFound(content: string, platformSpecificData: Record<string, unknown>) {
      const account = await addXAccount(t, org);
      t.sandbox.faults.add({ host: 'api.x.com', path: '/2/tweets', method: 'POST', kind: 'delay', delayMs: TIMEOUT_MS + 500, times: 1 });
      const start = mark();
      const { postId, targetId } = await publishNow(content, [{ accountId: account.id, platformSpecificData }]);
      const row = await firstFailure(targetId);
      assert.match(row.progress, /"inflight":\{"post0"/, 'the call is marked: its fate is unknown');
      await waitFor(() => postsOf(account.userId).length === 1 || null, 5000, 'the late post');
      const delta = (row.next_attempt_at ?? 0) - clock.now() + 1;
      clock.offset += delta;
      t.sandbox.clock.advance(delta);
      t.worker?.wake();
      const post = await settled(t, key, postId, undefined, 30_000);
      const target = post.targets[0];
      assert.equal(target?.status, 'published', target?.error ?? '');
      assert.deepEqual(postsOf(account.userId).map((p) => p.id), [target?.platformPostId], 'X holds the post once, and the target has its id');
      assert.equal(calls('api.x.com', start, 'POST', /^\/2\/tweets$/).length, 1, 'POST /2/tweets was not sent again');
      assert.ok(calls('api.x.com', start, 'GET', /^\/2\/users\/\d+\/tweets$/).length > 0, 'the retry looked through the timeline');
    }

    test('a text with &, < and >: X answers them as HTML entities', async () => {
      await lostAndFound(`Bread & butter <fresh> ${dialect}`, {});
    });

    test('a bare host: X expands its link with http://', async () => {
      await lostAndFound(`Order at example.com/bread ${dialect}`, {});
    });

    test('a post with an image: X ends its text with a t.co link to the photo', async () => {
      await lostAndFound(`A loaf ${dialect}`, { mediaUrls: [`${files.url}/a.jpg`] });
    });

    test('an image and no text: X answers only the photo link', async () => {
      await lostAndFound('', { mediaUrls: [`${files.url}/a.jpg`] });
    });

    test('a thread refused part way, published again, goes on after its live posts: each post once', async () => {
      const account = await addXAccount(t, org);
      const items = ['Thread one', 'Thread two', 'Thread three'].map((c) => `${c} ${dialect}`);
      // The second post is refused (a permanent 400): the first is live, the target fails.
      t.sandbox.faults.add({ host: 'api.x.com', path: '/2/tweets', method: 'POST', kind: 'error', status: 400, message: 'The sandbox refuses this post', times: 1, after: 1 });
      const start = mark();
      const { postId } = await publishNow('thread', [{ accountId: account.id, platformSpecificData: { threadItems: items.map((content) => ({ content })) } }]);
      const failed = await settled(t, key, postId, undefined, 30_000);
      assert.equal(failed.targets[0]?.status, 'failed', JSON.stringify(failed.targets[0]));
      const texts = () => postsOf(account.userId).map((p) => p.text).sort();
      assert.deepEqual(texts(), [items[0]]);
      const again = await t.request(`/api/v1/posts/${postId}/publish`, { key, method: 'POST' });
      assert.equal(again.status, 200, await again.clone().text());
      const post = await settled(t, key, postId, undefined, 30_000);
      assert.equal(post.targets[0]?.status, 'published', post.targets[0]?.error ?? '');
      assert.deepEqual(texts(), [...items].sort(), 'each post once');
      const first = postsOf(account.userId).find((p) => p.text === items[0]);
      assert.equal(post.targets[0]?.platformPostId, first?.id, 'the first post, made before the failure, is the target’s');
      assert.deepEqual(calls('api.x.com', start, 'POST', /^\/2\/tweets$/).map((c) => (c.body as { text?: string }).text), [items[0], items[1], items[1], items[2]]);
    });
  });
}
