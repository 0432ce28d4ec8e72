// The delivery store (src/modules/posts/delivery/delivery-store.ts) behaves the same on every
// store: the state machine is written once and each implementation only writes what it decided.
// Each implementation is driven here by hand, without a worker, the way a `post.deliver` run
// drives it (its job held, the target started, the outcome recorded): the portable one on SQLite
// and on PostgreSQL (where it is PostgreSQL's fallback), PostgreSQL's own on PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TargetStatus } from '../src/db/schema.ts';
import { deliveryStoreOf, type DeliveryStore } from '../src/modules/posts/delivery/delivery-store.ts';
import { recordOutcome, type StepOutcome } from '../src/modules/posts/delivery/outcome.ts';
import { portableDeliveryStore } from '../src/modules/posts/delivery/portable-store.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { Receiver } from './harness/receiver.ts';
import { addAccount, createPost, json, startPostsApp, type PostsApp } from './posts-support.ts';

const published: StepOutcome = { kind: 'published', platformPostId: 't3_x', url: 'https://example.test/x' };
const failedForGood: StepOutcome = { kind: 'failed', message: 'refused', retryable: false };
const transient: StepOutcome = { kind: 'failed', message: 'try later', retryable: true };
const processing: StepOutcome = { kind: 'processing', checkAfterMs: 5_000 };

for (const dialect of DIALECTS) {
  describe(`posts: the delivery store [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let receiver: Receiver;
    let key: string;
    let org: string;
    before(async () => {
      t = await startPostsApp(dialect, { worker: false });
      receiver = await new Receiver().start();
      ({ key, organizationId: org } = await t.tenant());
      const hook = await t.request('/api/v1/webhooks', { key, method: 'POST', headers: json, body: JSON.stringify({ url: receiver.url, events: ['post.published', 'post.failed'] }) });
      assert.equal(hook.status, 201);
    });
    after(async () => {
      await t.close();
      await receiver.stop();
    });

    const implementations: Array<[string, () => DeliveryStore]> = [['portable', () => portableDeliveryStore]];
    if (dialect === 'postgres') implementations.push(['postgres', () => deliveryStoreOf(t.runtime.deps.store)]);

    for (const [name, implementation] of implementations) {
      describe(`${name} implementation`, () => {
        const db = () => t.runtime.deps.store.db;
        const now = () => t.runtime.deps.clock.now();

        /** A scheduled post of `targets` reddit targets, dispatched by the implementation; its target ids in order. */
        async function dispatched(targets: number): Promise<{ postId: string; targetIds: string[] }> {
          const platforms = [];
          for (let i = 0; i < targets; i++) platforms.push({ accountId: (await addAccount(t, org, 'reddit')).id, platformSpecificData: { subreddit: 'sandbox' } });
          const created = await createPost(t, key, { content: `store ${name}`, scheduledFor: new Date(now() + 3_600_000).toISOString(), platforms });
          assert.equal(created.status, 201, JSON.stringify(created.body));
          const postId = created.body.post.id;
          await implementation().dispatch(t.runtime.deps.store, postId, now());
          return { postId, targetIds: created.body.post.targets.map((target) => target.id) };
        }

        /** The target's pending job, taken as a worker takes it: its lease and the due time it carries. */
        async function take(targetId: string) {
          const job = await db().selectFrom('jobs').selectAll().where('kind', '=', 'post.deliver').where('status', '=', 'pending').where('payload', 'like', `%${targetId}%`).executeTakeFirst();
          assert.ok(job, `a pending job for ${targetId}`);
          const attempt = job.attempts + 1;
          await db().updateTable('jobs').set({ status: 'running', attempts: attempt, locked_by: 'test', locked_until: now() + 60_000 }).where('id', '=', job.id).execute();
          return { lease: { jobId: job.id, attempt }, dueAt: (JSON.parse(job.payload) as { dueAt: number }).dueAt };
        }

        /** One run of the target's job ending with `outcome`; the target's new status. */
        async function step(targetId: string, outcome: StepOutcome): Promise<TargetStatus> {
          const { lease, dueAt } = await take(targetId);
          const store = t.runtime.deps.store;
          const started = await implementation().start(store, targetId, dueAt, now(), lease);
          assert.ok(started && 'row' in started, 'the run started its target');
          const target = { ...started.row, attempts: started.row.attempts + (started.claimed ? 1 : 0) };
          return recordOutcome(store, now(), org, target, outcome, lease, started.nextWaiting, implementation());
        }

        const targets = async (postId: string) => db().selectFrom('post_targets').select(['id', 'status', 'attempts', 'next_attempt_at', 'platform_post_id', 'error']).where('post_id', '=', postId).orderBy('position').execute();
        const post = async (postId: string) => (await db().selectFrom('posts').select('status').where('id', '=', postId).executeTakeFirstOrThrow()).status;
        const events = async (postId: string) => (await db().selectFrom('events').select(['id', 'type', 'data']).where('data', 'like', `%${postId}%`).execute()).filter((e) => e.type.startsWith('post.'));
        const deliveries = async (eventId: string) => db().selectFrom('webhook_deliveries').select('id').where('event_id', '=', eventId).execute();

        test('a dispatch queues the post and releases its first target only, with its job; a post no longer scheduled is left alone', async () => {
          const { postId, targetIds } = await dispatched(2);
          assert.equal(await post(postId), 'queued');
          const rows = await targets(postId);
          assert.notEqual(rows[0]?.next_attempt_at, null);
          assert.equal(rows[1]?.next_attempt_at, null);
          assert.ok((await take(targetIds[0] ?? '')).lease.jobId);
          await implementation().dispatch(t.runtime.deps.store, postId, now());
          assert.equal((await targets(postId))[1]?.next_attempt_at, null, 'a second dispatch released nothing');
        });

        test('every target published: the post is published, post.published is recorded once with a delivery for the endpoint', async () => {
          const { postId, targetIds } = await dispatched(3);
          for (const id of targetIds) assert.equal(await step(id, published), 'published');
          assert.deepEqual((await targets(postId)).map((row) => [row.status, row.attempts, row.platform_post_id]), targetIds.map(() => ['published', 1, 't3_x']));
          assert.equal(await post(postId), 'published');
          const recorded = await events(postId);
          assert.deepEqual(recorded.map((e) => [e.type, JSON.parse(e.data) as unknown]), [['post.published', { postId, status: 'published' }]]);
          assert.equal((await deliveries(recorded[0]?.id ?? '')).length, 1);
        });

        test('some published, some failed for good: partial, announced as post.failed; the failure does not hold back the next target', async () => {
          const { postId, targetIds } = await dispatched(3);
          const [a = '', b = '', c = ''] = targetIds;
          assert.equal(await step(a, published), 'published');
          assert.equal(await post(postId), 'publishing');
          assert.equal(await step(b, failedForGood), 'failed');
          assert.equal(await step(c, published), 'published');
          assert.equal(await post(postId), 'partial');
          assert.deepEqual((await events(postId)).map((e) => [e.type, JSON.parse(e.data) as unknown]), [['post.failed', { postId, status: 'partial' }]]);
        });

        test('every target failed: the post failed, post.failed', async () => {
          const { postId, targetIds } = await dispatched(2);
          for (const id of targetIds) assert.equal(await step(id, failedForGood), 'failed');
          assert.equal(await post(postId), 'failed');
          assert.deepEqual((await events(postId)).map((e) => [e.type, JSON.parse(e.data) as unknown]), [['post.failed', { postId, status: 'failed' }]]);
          assert.equal((await targets(postId))[0]?.error, 'refused');
        });

        test('a retry and a processing check each queue the target\'s next step and release the next target; the post settles when the last one ends', async () => {
          const { postId, targetIds } = await dispatched(2);
          const [a = '', b = ''] = targetIds;
          const before = now();
          assert.equal(await step(a, transient), 'pending');
          const retried = (await targets(postId))[0];
          assert.ok((retried?.next_attempt_at ?? 0) > before, 'the retry is scheduled later');
          assert.equal(await step(b, processing), 'publishing');
          assert.equal(await post(postId), 'publishing');
          assert.equal(await step(b, published), 'published');
          assert.equal(await post(postId), 'publishing', 'the first target is still open');
          assert.equal(await step(a, published), 'published');
          assert.deepEqual((await targets(postId)).map((row) => [row.status, row.attempts]), [['published', 2], ['published', 1]]);
          assert.equal(await post(postId), 'published');
          assert.equal((await events(postId)).length, 1);
        });

        test('a run that lost its lease records nothing', async () => {
          const { postId, targetIds } = await dispatched(2);
          const [a = ''] = targetIds;
          const { lease, dueAt } = await take(a);
          const store = t.runtime.deps.store;
          const started = await implementation().start(store, a, dueAt, now(), lease);
          assert.ok(started && 'row' in started);
          await db().updateTable('jobs').set({ status: 'pending' }).where('id', '=', lease.jobId).execute();
          await assert.rejects(recordOutcome(store, now(), org, { ...started.row, attempts: 1 }, published, lease, started.nextWaiting, implementation()), /no longer held by this run/);
          assert.deepEqual((await targets(postId)).map((row) => row.status), ['publishing', 'pending']);
          assert.equal((await targets(postId))[1]?.next_attempt_at, null, 'the next target was not released');
        });

        test('a second run for a target already claimed finds it taken', async () => {
          const { targetIds } = await dispatched(1);
          const [a = ''] = targetIds;
          const { lease, dueAt } = await take(a);
          const store = t.runtime.deps.store;
          const first = await implementation().start(store, a, dueAt, now(), lease);
          assert.ok(first && 'row' in first && first.claimed);
          const again = await implementation().start(store, a, dueAt, now(), lease);
          assert.ok(again && 'row' in again && !again.claimed, 'the second run resumes the attempt, it does not claim it again');
        });
      });
    }
  });
}
