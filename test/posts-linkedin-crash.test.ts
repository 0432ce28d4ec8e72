// linkedin exactly once across a crash (DESIGN "Publishing and exactly once", the linkedin row).
// The API and the sandbox run in this test's process; delivery runs in `socialapi worker`
// processes reaching the sandbox over HTTP. POST /rest/posts is slowed down and one worker is
// killed with SIGKILL while posts are in flight; the sandbox finishes them, as LinkedIn would.
// Organization accounts: the other worker looks back through the organization's posts and adopts
// what the cut-off calls made. Person accounts: a member's posts cannot be read, so an interrupted
// post fails with the "cannot be checked" message; published again, LinkedIn's 422 duplicate
// names the first post, which is adopted. Either way nothing exists twice.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Spawned } from './harness/cli.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { addLinkedInAccount } from './linkedin-support.ts';
import { createPost, getPost, settled, type PostsApp, startPostsApp, startWorkerProcess } from './posts-support.ts';

const ACCOUNTS = 2;
const POSTS_PER_ACCOUNT = 5;
const DELAY_MS = 700;

for (const dialect of DIALECTS) {
  describe(`posts to linkedin: SIGKILL while POST /rest/posts is in flight [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    const workers: Spawned[] = [];

    before(async () => {
      t = await startPostsApp(dialect, { worker: false });
      t.sandbox.faults.add({ host: 'api.linkedin.com', path: '/rest/posts', method: 'POST', kind: 'delay', delayMs: DELAY_MS, times: 100_000 });
    });
    after(async () => {
      for (const w of workers) await w.stop('SIGKILL');
      await t.close();
    });

    const startWorker = () => startWorkerProcess(t, workers, { PLATFORM_TIMEOUT_MS: '2000', JOB_LEASE_MS: '1000' });
    const urnsOnLinkedIn = (content: string) => [...t.sandbox.linkedin.posts.values()].filter((p) => p.shown === content && !p.deleted).map((p) => p.urn);

    async function crashRun(kind: 'person' | 'organization') {
      const { key, organizationId } = await t.tenant();
      const accounts = [];
      for (let i = 0; i < ACCOUNTS; i++) accounts.push(await addLinkedInAccount(t, organizationId, kind));
      // One worker until the kill, so the calls in flight are the killed worker's; the other starts after it.
      const first = await startWorker();
      const posts: Array<{ id: string; content: string }> = [];
      for (let n = 0; n < POSTS_PER_ACCOUNT; n++) {
        for (const account of accounts) {
          const content = `Crash ${kind} ${dialect} ${account.id.slice(-6)} number ${n}`;
          const created = await createPost(t, key, { content, publishNow: true, platforms: [{ accountId: account.id }] });
          assert.equal(created.status, 201, JSON.stringify(created.body));
          posts.push({ id: created.body.post.id, content });
        }
      }
      const { db } = t.runtime.deps.store;
      await waitFor(async () => {
        const rows = await db.selectFrom('post_targets').select('progress').where('organization_id', '=', organizationId).where('status', '=', 'publishing').execute();
        return rows.filter((r) => /"inflight":\{"/.test(r.progress)).length >= 2;
      }, 60_000, 'calls in flight', 50);
      await new Promise((resolve) => setTimeout(resolve, 200));
      first.child.kill('SIGKILL');
      await first.stop();
      const second = await startWorker();
      await waitFor(async () => {
        const rows = await db.selectFrom('posts').select(['status']).where('organization_id', '=', organizationId).execute();
        return rows.every((r) => ['published', 'failed', 'partial'].includes(r.status)) ? rows : null;
      }, 120_000, 'every post to settle', 200).catch(async (error: unknown) => {
        const open = await db.selectFrom('post_targets').select(['status', 'attempts', 'error', 'progress', 'next_attempt_at']).where('organization_id', '=', organizationId).where('status', 'not in', ['published', 'failed']).execute();
        throw new Error(`${String(error)}; unsettled targets: ${JSON.stringify(open)}; now ${Date.now()}`);
      });
      const targets = [];
      for (const post of posts) targets.push({ ...post, target: (await getPost(t, key, post.id)).targets[0] });
      return { key, targets, worker: second };
    }

    test('organizations: every post exists once on LinkedIn, found again by the look back', { timeout: 180_000 }, async (tc) => {
      const { targets, worker } = await crashRun('organization');
      await worker.stop('SIGKILL');
      let interrupted = 0;
      for (const { content, target } of targets) {
        assert.equal(target?.status, 'published', `${content}: ${target?.error ?? ''}`);
        assert.deepEqual(urnsOnLinkedIn(content), [target?.platformPostId], `LinkedIn holds "${content}" once, and the target has its URN`);
        assert.ok(target?.url?.includes('/feed/update/urn:li:share:'), target?.url ?? '');
        if (target?.attempts === 2) interrupted++;
      }
      tc.diagnostic(`interrupted posts looked back for: ${interrupted}`);
      assert.ok(interrupted > 0, 'the kill cut off some posts');
      assert.ok(t.sandbox.journal.list({ host: 'api.linkedin.com', method: 'GET', path: '/rest/posts' }).some((e) => e.query.q === 'author'), 'the look went through the organization’s posts');
    });

    test('persons: an interrupted post fails as "cannot be checked"; published again, the 422 duplicate is adopted', { timeout: 180_000 }, async (tc) => {
      const { key, targets, worker } = await crashRun('person');
      let failed = 0;
      for (const { id, content, target } of targets) {
        const urns = urnsOnLinkedIn(content);
        assert.ok(urns.length <= 1, `"${content}" is on LinkedIn ${urns.length} times`);
        if (target?.status === 'published') {
          assert.deepEqual(urns, [target.platformPostId]);
          continue;
        }
        failed++;
        assert.equal(target?.status, 'failed');
        assert.match(target?.error ?? '', /cannot be checked \(reading a member's own posts needs LinkedIn's restricted r_member_social permission\).*it was not sent again, to avoid a duplicate/);
        const again = await t.request(`/api/v1/posts/${id}/publish`, { key, method: 'POST' });
        assert.ok(again.status < 300, await again.text());
        const republished = (await settled(t, key, id)).targets[0];
        assert.equal(republished?.status, 'published', republished?.error ?? '');
        assert.deepEqual(urnsOnLinkedIn(content), [republished?.platformPostId], `"${content}" exists once after publishing again`);
      }
      await worker.stop('SIGKILL');
      tc.diagnostic(`failed as unfindable, then published again: ${failed}`);
      assert.ok(failed > 0, 'the kill cut off some posts');
    });
  });
}
