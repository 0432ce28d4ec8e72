// POST /posts 429 `rate_limited` (DESIGN §2 Posts): a publishNow target whose instagram or threads
// account has no posts left in its platform publishing window refuses the post, and nothing is
// stored. The window is read from the sandbox's quota endpoints, whose limits the tests lower.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Clock } from '../src/lib/clock.ts';
import { WINDOW_CACHE_MS } from '../src/modules/posts/publishing-window.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { addMetaAccount, quickMetaProcessing } from './posts-meta-support.ts';
import { addAccount, createPost, settled, startPostsApp, type PostsApp } from './posts-support.ts';

/** Real time plus an offset the tests move forward, to outlive the window's cache. */
class ShiftClock implements Clock {
  offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
}

for (const dialect of DIALECTS) {
  describe(`posts: publishing windows (429 rate_limited) [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let files: FileServer;
    const clock = new ShiftClock();

    before(async () => {
      t = await startPostsApp(dialect, { clock });
      quickMetaProcessing(t);
      files = await fileServer({ '/a.jpg': { body: samples.jpeg } });
    });
    after(async () => {
      t.sandbox.updateSettings({ limits: { threadsPosts: 250, instagramPosts: 100 } });
      await t.close();
      await files.close();
    });

    const limitReads = (after: number) => t.sandbox.journal.list({ after }).filter((e) => /\/(content|threads)_publishing_limit$/.test(e.path));
    const mark = () => t.sandbox.journal.list().at(-1)?.seq ?? 0;
    const stored = async (organizationId: string) => {
      const { db } = t.runtime.deps.store;
      const posts = await db.selectFrom('posts').select('id').where('organization_id', '=', organizationId).execute();
      const targets = await db.selectFrom('post_targets').select('id').where('organization_id', '=', organizationId).execute();
      return { posts: posts.length, targets: targets.length };
    };

    test('threads: the last post of the window goes out; the next publishNow is 429 and stores nothing', async () => {
      t.sandbox.updateSettings({ limits: { threadsPosts: 1 } });
      const { key, organizationId } = await t.tenant();
      const threads = await addAccount(t, organizationId, 'threads');
      const reddit = await addAccount(t, organizationId, 'reddit');

      const first = await createPost(t, key, { content: 'The one post left today', publishNow: true, platforms: [{ accountId: threads.id }] });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.equal((await settled(t, key, first.body.post.id)).status, 'published');

      // A mixed post: the reddit target is refused with it (the whole post is one request).
      const body = { content: 'One too many', publishNow: true, platforms: [{ accountId: reddit.id, platformSpecificData: { subreddit: 'sandbox' } }, { accountId: threads.id }] };
      const refused = await createPost(t, key, body, { 'x-request-id': 'over-the-limit' });
      assert.equal(refused.status, 429, JSON.stringify(refused.body));
      assert.equal(refused.body.error?.code, 'rate_limited');
      assert.match(refused.body.error?.message ?? '', new RegExp(`threads account .*\\(${threads.id}\\) has no posts left in its publishing window: 1 of 1 in the last 24 hours`));
      assert.deepEqual(await stored(organizationId), { posts: 1, targets: 1 });
      const jobs = await t.runtime.deps.store.db.selectFrom('jobs').select('id').where('payload', 'like', '%One too many%').execute();
      assert.equal(jobs.length, 0);

      // Nothing was kept for the request key either: it may be used again for another body.
      const draft = await createPost(t, key, { content: 'Kept for tomorrow', platforms: [{ accountId: threads.id }] }, { 'x-request-id': 'over-the-limit' });
      assert.equal(draft.status, 201, JSON.stringify(draft.body));
      // Drafts, scheduled posts and other accounts are not held back by the window.
      const scheduled = await createPost(t, key, { content: 'Tomorrow', scheduledFor: new Date(clock.now() + 86_400_000).toISOString(), platforms: [{ accountId: threads.id }] });
      assert.equal(scheduled.status, 201, JSON.stringify(scheduled.body));
      assert.equal(scheduled.body.post.status, 'scheduled');
      const other = await createPost(t, key, { content: 'Elsewhere', publishNow: true, platforms: [{ accountId: reddit.id, platformSpecificData: { subreddit: 'sandbox' } }] });
      assert.equal(other.status, 201, JSON.stringify(other.body));
      assert.equal((await settled(t, key, other.body.post.id)).status, 'published');
      t.sandbox.updateSettings({ limits: { threadsPosts: 250 } });
    });

    test('instagram: the window is read from content_publishing_limit, trusted for a while, then read again', async () => {
      t.sandbox.updateSettings({ limits: { instagramPosts: 1 } });
      const { key, organizationId } = await t.tenant();
      const ig = await addMetaAccount(t, organizationId, 'instagram');
      const post = { content: 'A picture', publishNow: true, platforms: [{ accountId: ig.id, platformSpecificData: { mediaUrls: [`${files.url}/a.jpg`] } }] };

      const start = mark();
      const first = await createPost(t, key, post);
      assert.equal(first.status, 201, JSON.stringify(first.body));
      assert.equal((await settled(t, key, first.body.post.id)).status, 'published');
      const reads = limitReads(start);
      assert.equal(reads.length, 1);
      assert.equal(reads[0]?.host, 'graph.facebook.com');
      assert.equal(reads[0]?.path.endsWith(`/${ig.platformUserId}/content_publishing_limit`), true);

      // The cached reading, less the post accepted on it, already says no post is left.
      const cached = await createPost(t, key, post);
      assert.equal(cached.status, 429, JSON.stringify(cached.body));
      assert.equal(limitReads(start).length, 1);

      // Once the reading is old, the platform is asked again, and it counts the published post.
      clock.offset += WINDOW_CACHE_MS + 1000;
      const fresh = await createPost(t, key, post);
      assert.equal(fresh.status, 429, JSON.stringify(fresh.body));
      assert.match(fresh.body.error?.message ?? '', /1 of 1 in the last 24 hours/);
      assert.equal(limitReads(start).length, 2);
      assert.deepEqual(await stored(organizationId), { posts: 1, targets: 1 });

      // The platform allows more: accepted again after the next reading.
      t.sandbox.updateSettings({ limits: { instagramPosts: 100 } });
      clock.offset += WINDOW_CACHE_MS + 1000;
      const again = await createPost(t, key, post);
      assert.equal(again.status, 201, JSON.stringify(again.body));
      assert.equal(limitReads(start).length, 3);
      assert.equal((await settled(t, key, again.body.post.id)).status, 'published');
    });

    test('concurrent posts on one reading cannot run past the window; a failing read lets posts through', async () => {
      t.sandbox.updateSettings({ limits: { threadsPosts: 3 } });
      const { key, organizationId } = await t.tenant();
      const threads = await addAccount(t, organizationId, 'threads');
      const start = mark();
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => createPost(t, key, { content: `Burst ${i}`, publishNow: true, platforms: [{ accountId: threads.id }] })));
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, 201, 201, 429, 429, 429]);
      assert.equal(limitReads(start).length, 1, 'concurrent requests share one reading');
      t.sandbox.updateSettings({ limits: { threadsPosts: 250 } });

      // The quota endpoint fails: the post is accepted (delivery meets the platform itself).
      const other = await addAccount(t, organizationId, 'threads');
      t.sandbox.faults.add({ host: 'graph.threads.net', path: '/*/threads_publishing_limit', kind: 'server_error', status: 500 });
      const through = await createPost(t, key, { content: 'Quota unknown', publishNow: true, platforms: [{ accountId: other.id }] });
      assert.equal(through.status, 201, JSON.stringify(through.body));
      assert.equal((await settled(t, key, through.body.post.id)).status, 'published');
      // A needs_reconnect account is not read (its delivery fails as reconnect_required).
      const dead = await addAccount(t, organizationId, 'threads', { status: 'needs_reconnect' });
      const before = mark();
      const held = await createPost(t, key, { content: 'Dead token', publishNow: true, platforms: [{ accountId: dead.id }] });
      assert.equal(held.status, 201, JSON.stringify(held.body));
      assert.equal(limitReads(before).length, 0);
    });
  });
}
