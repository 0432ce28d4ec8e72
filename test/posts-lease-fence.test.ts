// Post delivery's writes are fenced by the job's lease (issue 21, point 2): a run whose job was
// reaped, or claimed again since, saves nothing, and so makes no publishing call (each is
// preceded by a saved marker) and records no outcome. The delivery handler is run here by hand,
// with the context a worker would have given it, against rows a crashed worker leaves behind.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildJobRegistry } from '../src/composition.ts';
import { createLogger } from '../src/http/logging.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { addAccount, createPost, startPostsApp, type PostsApp } from './posts-support.ts';

for (const dialect of DIALECTS) {
  describe(`posts: delivery writes fenced by the job's lease [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    before(async () => {
      t = await startPostsApp(dialect, { worker: false });
    });
    after(() => t.close());

    /** A publishNow reddit post, its queued delivery job, and a way to run that job as a worker would. */
    async function queuedDelivery(title: string) {
      const { key, organizationId } = await t.tenant();
      const account = await addAccount(t, organizationId, 'reddit');
      const created = await createPost(t, key, { content: title, publishNow: true, platforms: [{ accountId: account.id, platformSpecificData: { subreddit: 'sandbox' } }] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const targetId = created.body.post.targets[0]?.id ?? '';
      const { db } = t.runtime.deps.store;
      const job = await db.selectFrom('jobs').selectAll().where('kind', '=', 'post.deliver').where('payload', 'like', `%${targetId}%`).executeTakeFirstOrThrow();
      const deliver = buildJobRegistry(t.runtime.deps).get('post.deliver')?.definition;
      assert.ok(deliver);
      const run = (attempt: number) =>
        deliver.run(JSON.parse(job.payload), { jobId: job.id, attempt, maxAttempts: job.max_attempts, signal: new AbortController().signal, db, log: createLogger('silent'), completeIn: () => Promise.resolve() });
      const submits = () => t.sandbox.journal.list({ host: 'oauth.reddit.com', method: 'POST', path: '/api/submit' }).filter((e) => (e.body as { title?: string }).title === title).length;
      const target = () => db.selectFrom('post_targets').select(['status', 'progress', 'platform_post_id']).where('id', '=', targetId).executeTakeFirstOrThrow();
      return { job, run, submits, target };
    }

    test('a run whose job went back to pending (reaped) sends nothing and records nothing', async () => {
      const { job, run, submits, target } = await queuedDelivery('Fenced: reaped');
      // The job as the reaper leaves it: pending, its first attempt counted, no lease.
      await t.runtime.deps.store.db.updateTable('jobs').set({ status: 'pending', attempts: 1 }).where('id', '=', job.id).execute();
      await assert.rejects(run(1), /no longer held by this run/);
      assert.equal(submits(), 0, 'no submit reached reddit');
      const row = await target();
      assert.equal(row.platform_post_id, null);
      assert.doesNotMatch(row.progress, /inflight/, 'no marker was saved');
    });

    test('a run whose job was claimed again since (another attempt) sends nothing', async () => {
      const { job, run, submits } = await queuedDelivery('Fenced: claimed again');
      await t.runtime.deps.store.db.updateTable('jobs').set({ status: 'running', attempts: 2, locked_by: 'another-worker', locked_until: Date.now() + 60_000 }).where('id', '=', job.id).execute();
      await assert.rejects(run(1), /no longer held by this run/);
      assert.equal(submits(), 0);
    });

    test('the run that holds the job publishes', async () => {
      const { job, run, submits, target } = await queuedDelivery('Fenced: held');
      await t.runtime.deps.store.db.updateTable('jobs').set({ status: 'running', attempts: 1, locked_by: 'this-worker', locked_until: Date.now() + 60_000 }).where('id', '=', job.id).execute();
      await run(1);
      assert.equal(submits(), 1);
      const row = await target();
      assert.equal(row.status, 'published');
      assert.match(row.platform_post_id ?? '', /^t3_/);
    });
  });
}
