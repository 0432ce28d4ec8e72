// pinterest exactly once across a crash (DESIGN "Publishing and exactly once", the pinterest row).
// The API and the sandbox run in this test's process; delivery runs in `socialapi worker`
// processes reaching the sandbox over HTTP. POST /v5/pins is slowed down and one worker is killed
// with SIGKILL while Pins are in flight; the sandbox finishes them, as Pinterest would. The other
// worker looks back through the board's Pins, newest first, and adopts what the cut-off calls
// made: every Pin exists once, and its target has that id.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Spawned } from './harness/cli.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { createPost, getPost, type PostsApp, startPostsApp, startWorkerProcess } from './posts-support.ts';
import { addPinterestAccount } from './pinterest-support.ts';

const ACCOUNTS = 2;
const POSTS_PER_ACCOUNT = 5;
const DELAY_MS = 700;

for (const dialect of DIALECTS) {
  describe(`posts to pinterest: SIGKILL while POST /v5/pins is in flight [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let files: FileServer;
    const workers: Spawned[] = [];

    before(async () => {
      t = await startPostsApp(dialect, { worker: false });
      files = await fileServer({ '/a.jpg': { body: samples.jpeg } });
      t.sandbox.faults.add({ host: 'api.pinterest.com', path: '/v5/pins', method: 'POST', kind: 'delay', delayMs: DELAY_MS, times: 100_000 });
    });
    after(async () => {
      for (const w of workers) await w.stop('SIGKILL');
      await t.close();
      await files.close();
    });

    /** The sandbox's live Pins with this description. */
    const pinsWith = (content: string) => [...t.sandbox.pinterest.pins.values()].filter((p) => p.description === content && !p.deleted).map((p) => p.id);

    test('every Pin exists once on Pinterest, and its target holds its id and link', { timeout: 180_000 }, async (tc) => {
      const { key, organizationId } = await t.tenant();
      const accounts = [];
      for (let i = 0; i < ACCOUNTS; i++) accounts.push(await addPinterestAccount(t, organizationId));
      const env = { PLATFORM_TIMEOUT_MS: '2000', JOB_LEASE_MS: '1000' };
      // One worker until the kill, so the calls in flight are the killed worker's; the other starts after it.
      const first = await startWorkerProcess(t, workers, env);
      const posts: Array<{ id: string; content: string }> = [];
      for (let n = 0; n < POSTS_PER_ACCOUNT; n++) {
        for (const account of accounts) {
          const content = `Crash ${dialect} ${account.id.slice(-6)} #${n}`;
          const created = await createPost(t, key, { content, publishNow: true, platforms: [{ accountId: account.id, platformSpecificData: { boardId: account.boards[0]?.id, title: `Loaf ${n}`, mediaUrl: `${files.url}/a.jpg` } }] });
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
      const second = await startWorkerProcess(t, workers, env);
      await waitFor(async () => {
        const rows = await db.selectFrom('posts').select(['status']).where('organization_id', '=', organizationId).execute();
        return rows.every((r) => ['published', 'failed', 'partial'].includes(r.status)) ? rows : null;
      }, 120_000, 'every post to settle', 200);
      await second.stop('SIGKILL');
      let interrupted = 0;
      for (const post of posts) {
        const target = (await getPost(t, key, post.id)).targets[0];
        assert.equal(target?.status, 'published', `${post.content}: ${target?.error ?? ''}`);
        assert.deepEqual(pinsWith(post.content), [target?.platformPostId], `Pinterest holds "${post.content}" once, and the target has its id`);
        assert.ok(target?.url?.includes('/pin/'), target?.url ?? '');
        if ((target?.attempts ?? 0) >= 2) interrupted++;
      }
      tc.diagnostic(`interrupted Pins looked back for: ${interrupted}`);
      assert.ok(interrupted > 0, 'the kill cut off some Pins');
      assert.ok(t.sandbox.journal.list({ host: 'api.pinterest.com', method: 'GET' }).some((e) => /^\/v5\/boards\/\d+\/pins$/.test(e.path)), 'the look went through the board’s Pins');
    });
  });
}
