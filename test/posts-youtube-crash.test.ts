// youtube exactly once across a crash (DESIGN "Publishing and exactly once", the youtube row). The
// API and the sandbox run in this test's process; delivery runs in `socialapi worker` processes
// reaching the sandbox over HTTP. The upload's PUTs and the first comment's POST are slowed down,
// and the one worker is killed with SIGKILL while uploads are in flight; the sandbox finishes
// what reached it, as YouTube would. A worker started after it finds each session URI in the
// target's progress, asks the session where it stands (`bytes */total`), and adopts the finished
// video or sends the rest; the first comment's marker makes it look for the comment before writing it again. Every
// video and every first comment exists once, and each target holds its video.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Spawned } from './harness/cli.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { createPost, getPost, type PostsApp, startPostsApp, startWorkerProcess } from './posts-support.ts';
import { addYouTubeAccount } from './youtube-support.ts';

const ACCOUNTS = 2;
const POSTS_PER_ACCOUNT = 4;
const DELAY_MS = 1200;

for (const dialect of DIALECTS) {
  describe(`posts to youtube: SIGKILL while uploads are in flight [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let files: FileServer;
    const workers: Spawned[] = [];

    before(async () => {
      t = await startPostsApp(dialect, { worker: false });
      t.sandbox.updateSettings({ youtube: { audited: true } });
      t.sandbox.faults.add({ host: 'www.googleapis.com', path: '/upload/youtube/v3/videos', method: 'PUT', kind: 'delay', delayMs: DELAY_MS, times: 100_000 });
      t.sandbox.faults.add({ host: 'www.googleapis.com', path: '/youtube/v3/commentThreads', method: 'POST', kind: 'delay', delayMs: DELAY_MS, times: 100_000 });
      files = await fileServer({ '/v.mp4': { body: Buffer.concat([samples.mp4, Buffer.alloc(50_000, 9)]) } });
    });
    after(async () => {
      for (const w of workers) await w.stop('SIGKILL');
      await t.close();
      await files.close();
    });

    const startWorker = () => startWorkerProcess(t, workers, { PLATFORM_TIMEOUT_MS: '2000', JOB_LEASE_MS: '1000' });

    test('every video and first comment exists once on YouTube, and each target holds its video', { timeout: 180_000 }, async (tc) => {
      const { key, organizationId } = await t.tenant();
      const accounts = [];
      for (let i = 0; i < ACCOUNTS; i++) accounts.push(await addYouTubeAccount(t, organizationId));
      // One worker until the kill, so the uploads in flight are the killed worker's; the other starts after it.
      const first = await startWorker();
      const posts: Array<{ id: string; title: string }> = [];
      for (let n = 0; n < POSTS_PER_ACCOUNT; n++) {
        for (const account of accounts) {
          const title = `Crash ${dialect} ${account.id.slice(-6)} #${n}`;
          const created = await createPost(t, key, {
            content: 'Baked today',
            publishNow: true,
            platforms: [{ accountId: account.id, platformSpecificData: { mediaUrl: `${files.url}/v.mp4`, title, madeForKids: false, firstComment: `First on ${title}` } }],
          });
          assert.equal(created.status, 201, JSON.stringify(created.body));
          posts.push({ id: created.body.post.id, title });
        }
      }
      const { db } = t.runtime.deps.store;
      await waitFor(async () => {
        const rows = await db.selectFrom('post_targets').select('progress').where('organization_id', '=', organizationId).where('status', '=', 'publishing').execute();
        // Uploads under way: a session stored, no video yet.
        return rows.filter((r) => r.progress.includes('"session":') && !r.progress.includes('"video":')).length >= 2;
      }, 60_000, 'uploads in flight', 50);
      first.child.kill('SIGKILL');
      await first.stop();
      const second = await startWorker();
      await waitFor(async () => {
        const rows = await db.selectFrom('posts').select(['status']).where('organization_id', '=', organizationId).execute();
        return rows.every((r) => ['published', 'failed', 'partial'].includes(r.status)) ? rows : null;
      }, 120_000, 'every post to settle', 200).catch(async (error: unknown) => {
        const open = await db.selectFrom('post_targets').select(['status', 'attempts', 'error', 'progress']).where('organization_id', '=', organizationId).where('status', 'not in', ['published', 'failed']).execute();
        throw new Error(`${String(error)}; unsettled targets: ${JSON.stringify(open)}`);
      });
      await second.stop('SIGKILL');
      for (const post of posts) {
        const target = (await getPost(t, key, post.id)).targets[0];
        assert.equal(target?.status, 'published', `${post.title}: ${target?.error ?? ''}`);
        const videos = [...t.sandbox.youtube.videos.values()].filter((v) => v.title === post.title && !v.deleted);
        assert.deepEqual(videos.map((v) => v.id), [target?.platformPostId], `YouTube holds "${post.title}" once, and the target has it`);
        const comments = [...t.sandbox.youtube.comments.values()].filter((c) => c.textOriginal === `First on ${post.title}`);
        assert.equal(comments.length, 1, `the first comment of "${post.title}" exists once`);
      }
      // A session left by the killed worker is asked where it stands before anything is sent again.
      const queries = t.sandbox.journal.list({ host: 'www.googleapis.com', method: 'PUT' }).filter((e) => /^bytes \*\//.test(e.headers['content-range'] ?? '')).length;
      tc.diagnostic(`sessions asked where they stood: ${queries}`);
      assert.ok(queries > 0, 'the kill cut off some uploads');
    });
  });
}
