// A worker process killed with SIGKILL in the middle of a container flow (issue 6, point 9): the
// API runs in this process with the sandbox and no worker; delivery runs in `socialapi worker`
// processes on the same database, reaching the sandbox over HTTP through PLATFORM_API_BASE. The
// first worker saves the Threads container, then hangs in its status check (the sandbox delays
// it) and is killed there; once its lease runs out a second worker resumes from the saved
// container. The sandbox's journal shows one container and one publish. A worker killed while its
// publish call is on the way leaves that call running on the platform: the next worker waits it
// out before it reads the container's status, and never publishes it twice.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Spawned } from './harness/cli.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { addAccount, createPost, settled, startPostsApp, startWorkerProcess, type PostsApp } from './posts-support.ts';

const LEASE_MS = 1000;

for (const dialect of DIALECTS) {
  describe(`posts: a worker killed mid-flow [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let files: FileServer;
    const workers: Spawned[] = [];

    before(async () => {
      t = await startPostsApp(dialect, { worker: false });
      files = await fileServer({ '/c.mp4': { body: samples.mp4 } });
    });
    after(async () => {
      for (const w of workers) await w.stop('SIGKILL');
      await t.close();
      await files.close();
    });

    /** `socialapi worker` on the API's database and data folder, calling the API's sandbox. */
    async function startWorker(env: Record<string, string> = {}): Promise<Spawned> {
      const worker = await startWorkerProcess(t, workers, { JOB_LEASE_MS: String(LEASE_MS), ...env });
      return worker;
    }

    test('the container saved before the kill is published exactly once by the next worker', async () => {
      const { key, organizationId } = await t.tenant();
      const account = await addAccount(t, organizationId, 'threads');
      const { db } = t.runtime.deps.store;
      const start = t.sandbox.journal.list().at(-1)?.seq ?? 0;
      // The video takes a minute of sandbox time to process, and the first status check hangs.
      t.sandbox.updateSettings({ processing: { threadsMediaMs: 60_000 } });
      t.sandbox.faults.add({ host: 'graph.threads.net', method: 'GET', path: '/*', kind: 'delay', delayMs: 10_000, times: 1 });

      const first = await startWorker();
      const created = await createPost(t, key, { content: 'Survives a crash', publishNow: true, platforms: [{ accountId: account.id, platformSpecificData: { mediaUrl: `${files.url}/c.mp4` } }] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const postId = created.body.post.id;
      const targetId = created.body.post.targets[0]?.id ?? '';

      // The container id is stored and the worker is inside the job, its status check hanging.
      const container = await waitFor(async () => {
        const row = await db.selectFrom('post_targets').select(['status', 'progress']).where('id', '=', targetId).executeTakeFirstOrThrow();
        const saved = (JSON.parse(row.progress) as { units?: Array<{ container?: string; published?: string }> }).units?.[0];
        // The delayed status check has reached the sandbox (its fault is used up).
        return row.status === 'publishing' && saved?.container && !saved.published && t.sandbox.faults.list().length === 0 ? saved.container : null;
      }, 15_000, 'the container id to be saved').catch((error: unknown) => {
        throw new Error(`${String(error)}; worker output:\n${first.output()}`);
      });
      const job = await waitFor(() => db.selectFrom('jobs').selectAll().where('kind', '=', 'post.deliver').where('status', '=', 'running').where('payload', 'like', `%${targetId}%`).executeTakeFirst(), 5000, 'the running job');
      assert.match(job.locked_by ?? '', new RegExp(`:${first.child.pid}:`));

      first.child.kill('SIGKILL');
      assert.equal(await first.stop(), null);
      assert.equal(first.child.signalCode, 'SIGKILL');
      assert.equal(t.sandbox.journal.list({ after: start }).filter((e) => e.path.endsWith('/threads_publish')).length, 0, 'nothing published before the kill');

      // The platform finishes processing meanwhile; a second worker takes over after the lease.
      t.sandbox.clock.advance(61_000);
      t.sandbox.updateSettings({ processing: { threadsMediaMs: 100 } });
      await startWorker();
      const post = await settled(t, key, postId, ['published', 'failed', 'partial'], 20_000);
      assert.equal(post.status, 'published', JSON.stringify(post));
      const target = post.targets[0];
      assert.equal(target?.status, 'published');
      assert.match(target?.platformPostId ?? '', /^\d+$/);
      assert.equal(target?.attempts, 1, 'resuming after the crash continues the same attempt');

      const calls = t.sandbox.journal.list({ host: 'graph.threads.net', after: start });
      const creations = calls.filter((e) => e.method === 'POST' && e.path.endsWith(`/${account.userId}/threads`));
      const publishes = calls.filter((e) => e.method === 'POST' && e.path.endsWith(`/${account.userId}/threads_publish`));
      assert.equal(creations.length, 1, 'one container creation');
      assert.equal(publishes.length, 1, 'one publish call');
      assert.deepEqual(publishes[0]?.query.creation_id ?? (publishes[0]?.body as Record<string, unknown> | undefined)?.creation_id, container);
      assert.equal(t.sandbox.threads.posts.size >= 1, true);
      assert.equal([...t.sandbox.threads.posts.values()].filter((p) => p.containerId === container).length, 1, 'one Threads post from the container');
    });

    test('a publish call cut off by the kill is waited out, then adopted, never sent again', async () => {
      const { key, organizationId } = await t.tenant();
      const account = await addAccount(t, organizationId, 'threads');
      const { db } = t.runtime.deps.store;
      t.sandbox.updateSettings({ processing: { threadsMediaMs: 100 } });
      // The platform takes 6 s to publish: the next worker takes over long before that. A second
      // publish would be as slow, and refused once the first is through.
      const slow = t.sandbox.faults.add({ host: 'graph.threads.net', method: 'POST', path: '/*/threads_publish', kind: 'delay', delayMs: 6000, times: 2 });
      // A call may run 2 s, so one cut off is over 7 s after it began (on every worker: the one
      // left by the test before waits by its own, longer timeout).
      for (const w of workers.splice(0)) await w.stop('SIGKILL');
      const timeout = { PLATFORM_TIMEOUT_MS: '2000' };
      const first = await startWorker(timeout);
      const content = 'Published while its worker died';
      const created = await createPost(t, key, { content, publishNow: true, platforms: [{ accountId: account.id }] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const targetId = created.body.post.targets[0]?.id ?? '';

      await waitFor(async () => {
        const row = await db.selectFrom('post_targets').select('progress').where('id', '=', targetId).executeTakeFirstOrThrow();
        const unit = (JSON.parse(row.progress) as { units?: Array<{ publishingAt?: number }> }).units?.[0];
        return unit?.publishingAt !== undefined && slow.remaining === 1;
      }, 15_000, 'the publish call to be marked and on its way').catch((error: unknown) => {
        throw new Error(`${String(error)}; worker output:\n${first.output()}`);
      });
      first.child.kill('SIGKILL');
      await first.stop();
      await startWorker(timeout);

      const post = await settled(t, key, created.body.post.id, ['published', 'failed', 'partial'], 30_000);
      assert.equal(post.status, 'published', JSON.stringify(post));
      const made = [...t.sandbox.threads.posts.values()].filter((p) => p.text === content);
      assert.equal(made.length, 1, 'one Threads post');
      assert.equal(post.targets[0]?.platformPostId, made[0]?.id, 'the target has the id of the post the cut-off call made');
      // The journal records answers, and the cut-off call's went nowhere: the fault counts arrivals.
      assert.equal(slow.remaining, 1, 'the cut-off call was not sent again');
    });
  });
}
