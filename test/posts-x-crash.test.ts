// x exactly once across a crash (DESIGN "Publishing and exactly once", the x row). The API and
// the sandbox run in this test's process; delivery runs in `socialapi worker` processes reaching
// the sandbox over HTTP. POST /2/tweets is slowed down and one worker is killed with SIGKILL
// while posts are in flight; the sandbox finishes them, as X would. With X_READS=1 the other
// worker looks back through the account's posts and adopts what the cut-off calls made: every
// post exists once, and its target has that id. With X_READS=0 an interrupted post cannot be
// looked for: its target fails with the "may exist, not sent again" message, and still nothing
// exists twice.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Spawned } from './harness/cli.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { createPost, getPost, type PostsApp, startPostsApp, startWorkerProcess } from './posts-support.ts';
import { addXAccount } from './posts-x-support.ts';

const ACCOUNTS = 2;
const POSTS_PER_ACCOUNT = 5;
const DELAY_MS = 700;

for (const dialect of DIALECTS) {
  describe(`posts to x: SIGKILL while POST /2/tweets is in flight [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    const workers: Spawned[] = [];

    before(async () => {
      t = await startPostsApp(dialect, { worker: false });
      t.sandbox.faults.add({ host: 'api.x.com', path: '/2/tweets', method: 'POST', kind: 'delay', delayMs: DELAY_MS, times: 100_000 });
    });
    after(async () => {
      for (const w of workers) await w.stop('SIGKILL');
      await t.close();
    });

    const startWorker = (reads: boolean) =>
      startWorkerProcess(t, workers, { PLATFORM_TIMEOUT_MS: '2000', JOB_LEASE_MS: '1000', X_READS: reads ? '1' : '0' });

    /** The sandbox's posts with this text, live. */
    const idsOnX = (content: string) => [...t.sandbox.x.posts.values()].filter((p) => p.text === content && !p.deleted).map((p) => p.id);

    /** Posts `n` per account, kills the first worker once calls are marked in flight, and waits until every post settles. */
    async function crashRun(reads: boolean, label: string) {
      const { key, organizationId } = await t.tenant();
      const accounts = [];
      for (let i = 0; i < ACCOUNTS; i++) accounts.push(await addXAccount(t, organizationId));
      // One worker until the kill, so the calls in flight are the killed worker's; the other starts after it.
      const first = await startWorker(reads);
      const posts: Array<{ id: string; content: string }> = [];
      for (let n = 0; n < POSTS_PER_ACCOUNT; n++) {
        for (const account of accounts) {
          const content = `Crash ${label} ${dialect} ${account.id.slice(-6)} #${n}`;
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
      const second = await startWorker(reads);
      await waitFor(async () => {
        const rows = await db.selectFrom('posts').select(['status']).where('organization_id', '=', organizationId).execute();
        return rows.every((r) => ['published', 'failed', 'partial'].includes(r.status)) ? rows : null;
      }, 120_000, 'every post to settle', 200);
      await second.stop('SIGKILL');
      const targets = [];
      for (const post of posts) targets.push({ ...post, target: (await getPost(t, key, post.id)).targets[0] });
      return targets;
    }

    test('X_READS=1: every post exists once on X, and its target holds its id and link', { timeout: 180_000 }, async (tc) => {
      const targets = await crashRun(true, 'reads');
      let interrupted = 0;
      for (const { content, target } of targets) {
        assert.equal(target?.status, 'published', `${content}: ${target?.error ?? ''}`);
        assert.deepEqual(idsOnX(content), [target?.platformPostId], `X holds "${content}" once, and the target has its id`);
        assert.ok(target?.url?.includes('/status/'), target?.url ?? '');
        if (target?.attempts === 2) interrupted++;
      }
      tc.diagnostic(`interrupted posts looked back for: ${interrupted}`);
      assert.ok(interrupted > 0, 'the kill cut off some posts');
      assert.ok(t.sandbox.journal.list({ host: 'api.x.com', method: 'GET' }).some((e) => /^\/2\/users\/\d+\/tweets$/.test(e.path)), 'the look went through the timeline');
    });

    test('X_READS=0: an interrupted post fails with "may exist, not sent again"; nothing exists twice', { timeout: 180_000 }, async (tc) => {
      const before = t.sandbox.journal.list({ host: 'api.x.com', method: 'GET' }).filter((e) => /\/tweets$/.test(e.path)).length;
      const targets = await crashRun(false, 'noreads');
      let failed = 0;
      for (const { content, target } of targets) {
        const ids = idsOnX(content);
        assert.ok(ids.length <= 1, `"${content}" is on X ${ids.length} times`);
        if (target?.status === 'published') assert.deepEqual(ids, [target.platformPostId]);
        else {
          failed++;
          assert.equal(target?.status, 'failed');
          assert.match(target?.error ?? '', /cannot be checked \(X reads are off \(X_READS=0\).*it was not sent again, to avoid a duplicate/);
        }
      }
      tc.diagnostic(`failed as unfindable: ${failed}`);
      assert.ok(failed > 0, 'the kill cut off some posts');
      assert.equal(t.sandbox.journal.list({ host: 'api.x.com', method: 'GET' }).filter((e) => /\/tweets$/.test(e.path)).length, before, 'no read of the timeline');
    });
  });
}
