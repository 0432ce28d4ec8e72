// bluesky exactly once (DESIGN "Publishing and exactly once", the bluesky row): every record's key
// (a TID) is saved with the target's progress before its createRecord, so a run after a crash or
// a lost answer asks getRecord for that key: the record is adopted when it is there, made again
// with the same key when RecordNotFound. Two suites, both stores:
// - SIGKILL: delivery in `socialapi worker` processes reaching the sandbox over HTTP, createRecord
//   slowed down, the first worker killed while records are in flight (the sandbox finishes what
//   reached it, as the PDS would); the second worker reconciles. Every post, thread item, first
//   comment and gate exists once.
// - In process: an answer lost past the platform timeout (the record made late) is adopted, not
//   made again; a 500 before anything was made is retried with the same key.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Spawned } from './harness/cli.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { createPost, getPost, lostAnswerTools, settled, ShiftClock, startPostsApp, startWorkerProcess, type PostsApp } from './posts-support.ts';
import { connectBluesky, newBlueskyPerson } from './bluesky-support.ts';
import type { RepoRecord } from '../src/sandbox/bluesky/store.ts';

const CREATE = '/xrpc/com.atproto.repo.createRecord';
const live = (t: PostsApp, did: string): RepoRecord[] => [...t.sandbox.bluesky.records.values()].filter((r) => r.did === did);
const withText = (t: PostsApp, did: string, text: string) => live(t, did).filter((r) => r.collection === 'app.bsky.feed.post' && r.value.text === text);

for (const dialect of DIALECTS) {
  describe(`posts to bluesky: SIGKILL while createRecord is in flight [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    const workers: Spawned[] = [];

    before(async () => {
      t = await startPostsApp(dialect, { worker: false });
      t.sandbox.faults.add({ host: 'bsky.social', path: CREATE, method: 'POST', kind: 'delay', delayMs: 700, times: 100_000 });
    });
    after(async () => {
      for (const w of workers) await w.stop('SIGKILL');
      await t.close();
    });

    test('every post, thread item, first comment and gate exists once, and each target holds its post', { timeout: 180_000 }, async (tc) => {
      const { key, organizationId } = await t.tenant();
      const people = [newBlueskyPerson(t.sandbox), newBlueskyPerson(t.sandbox)];
      const accounts: Array<{ id: string; did: string }> = [];
      for (const person of people) accounts.push({ id: await connectBluesky(t, key, person), did: person.did });
      const env = { PLATFORM_TIMEOUT_MS: '2000', JOB_LEASE_MS: '1000' };
      const first = await startWorkerProcess(t, workers, env);
      const second = await startWorkerProcess(t, workers, env);
      const posts: Array<{ id: string; label: string; did: string }> = [];
      for (let n = 0; n < 3; n++) {
        for (const account of accounts) {
          const label = `Crash ${dialect} ${account.id.slice(-6)} #${n}`;
          const created = await createPost(t, key, {
            content: 'ignored',
            publishNow: true,
            platforms: [{ accountId: account.id, platformSpecificData: { threadItems: [{ content: `${label} one` }, { content: `${label} two` }], firstComment: `${label} comment`, replyControl: 'nobody' } }],
          });
          assert.equal(created.status, 201, JSON.stringify(created.body));
          posts.push({ id: created.body.post.id, label, did: account.did });
        }
      }
      const { db } = t.runtime.deps.store;
      await waitFor(async () => {
        const rows = await db.selectFrom('post_targets').select('progress').where('organization_id', '=', organizationId).where('status', '=', 'publishing').execute();
        return rows.filter((r) => /"inflight":\{"record/.test(r.progress)).length >= 2;
      }, 60_000, 'createRecord calls in flight', 50);
      first.child.kill('SIGKILL');
      await first.stop();
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
        assert.equal(target?.status, 'published', `${post.label}: ${target?.error ?? ''}`);
        const [one, ...more] = withText(t, post.did, `${post.label} one`);
        assert.deepEqual([one?.uri, more.length], [target?.platformPostId, 0], `"${post.label} one" exists once, and the target has it`);
        assert.equal(withText(t, post.did, `${post.label} two`).length, 1, `"${post.label} two" exists once`);
        assert.equal(withText(t, post.did, `${post.label} comment`).length, 1, `the first comment of "${post.label}" exists once`);
        const gates = live(t, post.did).filter((r) => r.collection === 'app.bsky.feed.threadgate' && r.value.post === one?.uri);
        assert.deepEqual(gates.map((g) => g.rkey), [one?.rkey]);
      }
      // The killed worker's calls are looked for by their keys before anything is sent again (how
      // many the kill cut off depends on timing; the suite below reconciles one deterministically).
      const looks = t.sandbox.journal.list({ host: 'bsky.social', method: 'GET' }).filter((e) => e.path === '/xrpc/com.atproto.repo.getRecord');
      tc.diagnostic(`keys looked up: ${looks.length} (found: ${looks.filter((e) => e.status === 200).length})`);
    });
  });

  describe(`posts to bluesky: lost answers and 500s on createRecord [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let key: string;
    let accountId: string;
    let did: string;
    const clock = new ShiftClock();
    const TIMEOUT_MS = 1000;

    before(async () => {
      t = await startPostsApp(dialect, { clock, env: { PLATFORM_TIMEOUT_MS: String(TIMEOUT_MS) } });
      ({ key } = await t.tenant());
      const person = newBlueskyPerson(t.sandbox);
      did = person.did;
      accountId = await connectBluesky(t, key, person);
    });
    after(() => t.close());

    const { targetRow, mark, calls, publishNow, firstFailure } = lostAnswerTools(() => t, () => key);
    const creates = (after: number) => calls('bsky.social', after, 'POST', /^\/xrpc\/com\.atproto\.repo\.createRecord$/);
    const rkeyOf = (call: { body: unknown }) => (call.body as { rkey: string }).rkey;

    /** Waits for the first attempt to fail (and for `ready`), then moves both clocks to its retry. */
    async function toRetry(targetId: string, ready: () => Promise<unknown> = () => Promise.resolve()): Promise<string> {
      const row = await firstFailure(targetId);
      await ready();
      const delta = (row.next_attempt_at ?? 0) - clock.now() + 1;
      clock.offset += delta;
      t.sandbox.clock.advance(delta);
      t.worker?.wake();
      return row.progress;
    }

    test('an answer lost past the timeout: the record was made late, the retry finds it by its key and adopts it', async () => {
      const text = `Lost ${dialect}`;
      t.sandbox.faults.add({ host: 'bsky.social', path: CREATE, method: 'POST', kind: 'delay', delayMs: TIMEOUT_MS + 500, times: 1 });
      const start = mark();
      const { postId, targetId } = await publishNow(text, [{ accountId }]);
      // The PDS makes the record after the client gave up (the real clock: the sandbox's delay runs in it).
      const progress = await toRetry(targetId, () => waitFor(() => withText(t, did, text).length === 1 || null, 5000, 'the late record'));
      assert.match(progress, /"inflight":\{"record0"/, 'the call is marked: its fate is unknown');
      const post = await settled(t, key, postId, undefined, 30_000);
      const target = post.targets[0];
      assert.equal(target?.status, 'published', target?.error ?? '');
      const records = withText(t, did, text);
      assert.deepEqual(records.map((r) => r.uri), [target?.platformPostId]);
      assert.equal(creates(start).length, 1, 'createRecord was not sent again');
      assert.ok(calls('bsky.social', start, 'GET', /getRecord$/).some((c) => c.query.rkey === records[0]?.rkey), 'getRecord asked for the saved key');
      assert.equal((await targetRow(targetId)).attempts, 2);
    });

    test('the thread gate’s answer lost past the timeout: the retry finds the gate by its key; one post, one gate', async () => {
      const text = `Gate lost ${dialect}`;
      // The post's createRecord goes through; the gate's, the second, is made late.
      t.sandbox.faults.add({ host: 'bsky.social', path: CREATE, method: 'POST', kind: 'delay', delayMs: TIMEOUT_MS + 500, times: 1, after: 1 });
      const start = mark();
      const { postId, targetId } = await publishNow(text, [{ accountId, platformSpecificData: { replyControl: 'nobody' } }]);
      const gates = () => live(t, did).filter((r) => r.collection === 'app.bsky.feed.threadgate');
      const before = gates().length;
      const progress = await toRetry(targetId, () => waitFor(() => gates().length === before + 1 || null, 5000, 'the late gate'));
      assert.match(progress, /"inflight":\{"gate"/, 'the gate call is marked: its fate is unknown');
      const post = await settled(t, key, postId, undefined, 30_000);
      assert.equal(post.targets[0]?.status, 'published', post.targets[0]?.error ?? '');
      const [record] = withText(t, did, text);
      assert.deepEqual(withText(t, did, text).map((r) => r.uri), [post.targets[0]?.platformPostId]);
      const made = gates().slice(before);
      assert.deepEqual(made.map((g) => [g.rkey, g.value.post]), [[record?.rkey, record?.uri]], 'one gate, of the post, under its key');
      assert.deepEqual(creates(start).map((c) => (c.body as { collection: string }).collection), ['app.bsky.feed.post', 'app.bsky.feed.threadgate'], 'neither was sent again');
      assert.ok(calls('bsky.social', start, 'GET', /getRecord$/).some((c) => c.query.collection === 'app.bsky.feed.threadgate' && c.query.rkey === record?.rkey), 'getRecord asked for the gate’s key');
    });

    test('a chain refused part way, published again, goes on after its live posts: each post once', async () => {
      const items = ['Chain one', 'Chain two', 'Chain three'].map((c) => `${c} ${dialect}`);
      // The second post is refused (a permanent 400): the first is live, the target fails.
      t.sandbox.faults.add({ host: 'bsky.social', path: CREATE, method: 'POST', kind: 'error', status: 400, body: { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record' }, times: 1, after: 1 });
      const start = mark();
      const { postId, targetId } = await publishNow('chain', [{ accountId, platformSpecificData: { threadItems: items.map((content) => ({ content })) } }]);
      const failed = await settled(t, key, postId, undefined, 30_000);
      assert.equal(failed.targets[0]?.status, 'failed', JSON.stringify(failed.targets[0]));
      assert.deepEqual(items.map((text) => withText(t, did, text).length), [1, 0, 0]);
      const again = await t.request(`/api/v1/posts/${postId}/publish`, { key, method: 'POST' });
      assert.equal(again.status, 200, await again.clone().text());
      const post = await settled(t, key, postId, undefined, 30_000);
      assert.equal(post.targets[0]?.status, 'published', post.targets[0]?.error ?? '');
      assert.deepEqual(items.map((text) => withText(t, did, text).length), [1, 1, 1], 'each post once');
      const [first] = withText(t, did, items[0] ?? '');
      assert.equal(post.targets[0]?.platformPostId, first?.uri, 'the first post, made before the failure, is the target’s');
      const [second] = withText(t, did, items[1] ?? '');
      assert.equal((second?.value.reply as { parent?: { uri?: string } } | undefined)?.parent?.uri, first?.uri, 'the chain goes on under it');
      assert.equal(creates(start).length, 4, 'the first post, the refused second, then the second and third');
      assert.equal((await targetRow(targetId)).status, 'published');
    });

    test('a 500 before anything was made: getRecord says RecordNotFound, and the retry creates it with the same key', async () => {
      const text = `Five hundred ${dialect}`;
      t.sandbox.faults.add({ host: 'bsky.social', path: CREATE, method: 'POST', kind: 'server_error', status: 500, times: 1 });
      const start = mark();
      const { postId, targetId } = await publishNow(text, [{ accountId }]);
      await toRetry(targetId);
      const post = await settled(t, key, postId, undefined, 30_000);
      assert.equal(post.status, 'published', JSON.stringify(post));
      const made = creates(start);
      assert.equal(made.length, 2);
      assert.equal(rkeyOf(made[0] ?? { body: {} }), rkeyOf(made[1] ?? { body: {} }), 'the same key both times');
      assert.deepEqual(withText(t, did, text).map((r) => r.uri), [post.targets[0]?.platformPostId]);
    });
  });
}
