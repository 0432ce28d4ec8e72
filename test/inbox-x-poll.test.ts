// x replies reach the inbox by polling (DESIGN "Comments and inbox": no reply webhooks below the
// enterprise tier, so x's definition asks for the comment poll; reads need X_READS=1): a person's
// reply to a published post becomes comment.received once, however many polls read it, and the
// account's own reply (its first comment) emits nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { queueStandingJobs } from '../src/composition.ts';
import { ManualClock } from './harness/clock.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { createPost, json, settled, startPostsApp, type PostsApp } from './posts-support.ts';
import { addXAccount } from './posts-x-support.ts';

const KIND = 'inbox.comment_poll';

for (const dialect of DIALECTS) {
  describe(`x replies polled into the inbox [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let key: string;
    let org: string;
    const clock = new ManualClock(Date.UTC(2031, 2, 3, 9, 1, 7));

    before(async () => {
      t = await startPostsApp(dialect, { clock, env: { X_READS: '1' } });
      ({ key, organizationId: org } = await t.tenant());
    });
    after(() => t.close());

    const db = () => t.runtime.deps.store.db;
    const runPoll = async () => {
      const [job] = await db().selectFrom('jobs').selectAll().where('kind', '=', KIND).orderBy('run_at').execute();
      assert.ok(job, 'a poll is queued');
      clock.advance(Math.max(0, job.run_at - clock.now()));
      t.worker?.wake();
      await waitFor(async () => !(await db().selectFrom('jobs').select('id').where('id', '=', job.id).executeTakeFirst()), 10_000, 'the poll to finish');
    };
    const received = async () =>
      (await db().selectFrom('events').selectAll().where('organization_id', '=', org).where('type', '=', 'comment.received').execute()).map((e) => JSON.parse(e.data) as { comment: { id: string; text: string } });

    test('a reply arrives once as comment.received; the first comment (the account’s own) does not', async () => {
      const acc = await addXAccount(t, org);
      const res = await createPost(t, key, { content: 'Ask us anything', publishNow: true, platforms: [{ accountId: acc.id, platformSpecificData: { firstComment: 'We answer by noon' } }] });
      const post = await settled(t, key, res.body.post.id);
      assert.equal(post.status, 'published', JSON.stringify(post));
      const postId = post.targets[0]?.platformPostId ?? '';
      const reply = await fetch(`${t.url}/sandbox/_sandbox/x/replies`, { method: 'POST', headers: json, body: JSON.stringify({ postId, text: 'Gluten free?', from: { username: 'curious_fan' } }) });
      assert.equal(reply.status, 200);
      await queueStandingJobs(t.runtime.deps);
      await runPoll();
      const first = await received();
      assert.deepEqual(first.map((e) => e.comment.text), ['Gluten free?']);
      assert.ok(t.sandbox.journal.list({ host: 'api.x.com', path: '/2/tweets/search/recent' }).length >= 1);
      await runPoll();
      assert.equal((await received()).length, 1, 'read again, emitted once');
    });
  });
}
