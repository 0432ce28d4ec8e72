// Reconciling a publishing call whose answer was lost (create-once.ts), on both stores: the
// sandbox answers 503 to the call, and the test then makes the object on the platform itself, as
// the platform would have done before the answer was lost. The retry must find that object and
// adopt it instead of sending the call again. A call whose result cannot be looked for (a Page
// draft) fails the target with a clear message, and publishing the post again sends it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { addMetaAccount } from './posts-meta-support.ts';
import { addAccount, getPost, json, lostAnswerTools, settled, ShiftClock, startPostsApp, type PostsApp } from './posts-support.ts';


for (const dialect of DIALECTS) {
  describe(`posts: reconciling a call whose answer was lost [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let key: string;
    let org: string;
    const clock = new ShiftClock();

    before(async () => {
      t = await startPostsApp(dialect, { clock });
      ({ key, organizationId: org } = await t.tenant());
    });
    after(() => t.close());

    const { sandboxUrl, targetRow, mark, calls, publishNow, firstFailure } = lostAnswerTools(() => t, () => key);

    /** Moves the service's clock and the platform's together (they agree, as real clocks roughly do). */
    function advanceTo(at: number | null): void {
      const delta = (at ?? 0) - clock.now() + 1;
      clock.offset += delta;
      t.sandbox.clock.advance(delta);
    }


    /** Waits for the first attempt to end waiting for a retry, then moves the clock to it. */
    async function afterFirstFailure(targetId: string): Promise<void> {
      const row = await firstFailure(targetId);
      assert.match(row.progress, /"inflight":\{"/, 'the call is marked: its fate is unknown');
      advanceTo(row.next_attempt_at);
      t.worker?.wake();
    }

    test('reddit: a submit whose answer was lost is found among the account submissions and adopted', async () => {
      const acc = await addAccount(t, org, 'reddit');
      const content = `Lost answer ${dialect}`;
      t.sandbox.faults.add({ host: 'oauth.reddit.com', path: '/api/submit', kind: 'server_error', status: 503, times: 1 });
      const start = mark();
      const { postId, targetId } = await publishNow(content, [{ accountId: acc.id, platformSpecificData: { subreddit: 'sandbox' } }]);
      await firstFailure(targetId);
      // What the platform did before its answer was lost.
      const made = await fetch(sandboxUrl('oauth.reddit.com', '/api/submit'), {
        method: 'POST',
        headers: { authorization: `bearer ${acc.token}`, 'user-agent': 'web:socialapi-tests:1.0 (by /u/tests)' },
        body: new URLSearchParams({ api_type: 'json', sr: 'sandbox', kind: 'self', title: content, text: '' }),
      });
      const name = ((await made.json()) as { json: { data: { name: string } } }).json.data.name;
      await afterFirstFailure(targetId);
      const post = await settled(t, key, postId);
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.equal(post.targets[0]?.platformPostId, name);
      assert.equal(post.targets[0]?.attempts, 2);
      assert.equal(calls('oauth.reddit.com', start, 'POST', /^\/api\/submit$/).length, 2, 'the lost call and the test’s own: none sent again');
      assert.equal(calls('oauth.reddit.com', start, 'GET', /\/submitted$/).length, 1, 'one look at the submissions');
    });

    test('facebook: a feed post and a first comment whose answers were lost are adopted, not repeated', async () => {
      const acc = await addMetaAccount(t, org, 'facebook');
      const content = `Feed lost answer ${dialect}`;
      t.sandbox.faults.add({ host: 'graph.facebook.com', path: `/${acc.pageId}/feed`, method: 'POST', kind: 'server_error', status: 503, times: 1 });
      const { postId, targetId } = await publishNow(content, [{ accountId: acc.id, platformSpecificData: { firstComment: 'First!' } }]);
      await firstFailure(targetId);
      const made = await fetch(sandboxUrl('graph.facebook.com', `/v24.0/${acc.pageId}/feed`), { method: 'POST', body: new URLSearchParams({ access_token: acc.token, message: content }) });
      const fbPostId = ((await made.json()) as { id: string }).id;
      // The first comment's answer is lost too, after the platform made it.
      t.sandbox.faults.add({ host: 'graph.facebook.com', path: `/${fbPostId}/comments`, method: 'POST', kind: 'server_error', status: 503, times: 1 });
      await afterFirstFailure(targetId);
      const row = await waitFor(async () => {
        const r = await targetRow(targetId);
        return r.status === 'pending' && r.attempts === 2 ? r : null;
      }, 10_000, 'the comment to fail once');
      assert.equal((JSON.parse(row.progress) as { postId?: string }).postId, fbPostId, 'the feed post was adopted');
      await fetch(sandboxUrl('graph.facebook.com', `/v24.0/${fbPostId}/comments`), { method: 'POST', body: new URLSearchParams({ access_token: acc.token, message: 'First!' }) });
      advanceTo(row.next_attempt_at);
      t.worker?.wake();
      const post = await settled(t, key, postId);
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.equal(post.targets[0]?.platformPostId, fbPostId);
      assert.equal([...t.sandbox.meta.fbPosts.values()].filter((p) => p.message === content).length, 1, 'one feed post');
      assert.equal([...t.sandbox.meta.fbComments.values()].filter((c) => c.postId === fbPostId && c.message === 'First!').length, 1, 'one first comment');
    });

    test('threads: a publish whose answer was lost reads the media id back instead of leaving it empty', async () => {
      const acc = await addAccount(t, org, 'threads');
      const content = `Threads lost answer ${dialect}`;
      t.sandbox.faults.add({ host: 'graph.threads.net', path: '/*/threads_publish', method: 'POST', kind: 'server_error', status: 503, times: 1 });
      const { postId, targetId } = await publishNow(content, [{ accountId: acc.id }]);
      const row = await firstFailure(targetId);
      const container = (JSON.parse(row.progress) as { units: Array<{ container: string }> }).units[0]?.container ?? '';
      const made = await fetch(sandboxUrl('graph.threads.net', `/v1.0/${acc.userId}/threads_publish`), { method: 'POST', headers: { authorization: `Bearer ${acc.token}` }, body: new URLSearchParams({ creation_id: container }) });
      const mediaId = ((await made.json()) as { id: string }).id;
      advanceTo(row.next_attempt_at);
      t.worker?.wake();
      const post = await settled(t, key, postId);
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.equal(post.targets[0]?.platformPostId, mediaId);
      assert.ok(post.targets[0]?.url);
      assert.equal([...t.sandbox.threads.posts.values()].filter((p) => p.text === content).length, 1);
    });

    test('facebook: an interrupted draft cannot be looked for, so the target fails saying so; publishing again sends it', async () => {
      const acc = await addMetaAccount(t, org, 'facebook');
      const content = `Draft lost answer ${dialect}`;
      t.sandbox.faults.add({ host: 'graph.facebook.com', path: `/${acc.pageId}/feed`, method: 'POST', kind: 'server_error', status: 503, times: 1 });
      const { postId, targetId } = await publishNow(content, [{ accountId: acc.id, platformSpecificData: { draft: true } }]);
      await afterFirstFailure(targetId);
      const failed = await settled(t, key, postId);
      assert.equal(failed.status, 'failed');
      assert.match(failed.targets[0]?.error ?? '', /cut off.*draft is not listed.*not sent again/);
      const again = await fetch(`${t.url}/api/v1/posts/${postId}/publish`, { method: 'POST', headers: { authorization: `Bearer ${key}`, ...json }, body: '{}' });
      assert.equal(again.status, 200);
      const post = await settled(t, key, postId);
      assert.equal(post.status, 'published', JSON.stringify(post));
      assert.equal([...t.sandbox.meta.fbPosts.values()].filter((p) => p.message === content).length, 1);
      assert.equal((await getPost(t, key, postId)).targets[0]?.attempts, 1);
    });
  });
}
