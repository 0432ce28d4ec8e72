// x mentions polled into the inbox (DESIGN "Comments and inbox", the x row: mentions from
// /2/users/{id}/mentions, polled only with X_READS=1): with the reads on, a post naming the account
// becomes mention.received once however many polls read it, and one made before the account was
// connected is not announced; with them off the poll makes no call and announces nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { queueStandingJobs } from '../src/composition.ts';
import { ManualClock } from './harness/clock.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { json, startPostsApp, type PostsApp } from './posts-support.ts';
import { addXAccount } from './posts-x-support.ts';

const MINUTE = 60_000;

for (const dialect of DIALECTS) {
  describe(`x mentions polled into the inbox [${dialect}]`, { skip: skipReason(dialect) }, () => {
    // The service runs ten minutes ahead of the sandbox, so what the sandbox makes now is from before the connection.
    const clocks = { on: new ManualClock(Date.now() + 10 * MINUTE), off: new ManualClock(Date.now() + 10 * MINUTE) };
    let on: PostsApp;
    let off: PostsApp;

    before(async () => {
      on = await startPostsApp(dialect, { clock: clocks.on, env: { X_READS: '1' } });
      off = await startPostsApp(dialect, { clock: clocks.off, env: { X_READS: '0' } });
    });
    after(async () => {
      await on.close();
      await off.close();
    });

    const poll = async (t: PostsApp, clock: ManualClock) => {
      const db = t.runtime.deps.store.db;
      await queueStandingJobs(t.runtime.deps);
      const [job] = await db.selectFrom('jobs').selectAll().where('kind', '=', 'inbox.mention_poll').orderBy('run_at').execute();
      assert.ok(job, 'the mention poll is queued');
      clock.advance(Math.max(0, job.run_at - clock.now()));
      t.worker?.wake();
      await waitFor(async () => !(await db.selectFrom('jobs').select('id').where('id', '=', job.id).executeTakeFirst()), 10_000, 'the mention poll to finish');
    };
    const mention = async (t: PostsApp, text: string, username: string) => {
      const res = await fetch(`${t.url}/sandbox/_sandbox/x/mentions`, { method: 'POST', headers: json, body: JSON.stringify({ text, from: { username } }) });
      assert.equal(res.status, 200, await res.clone().text());
      return ((await res.json()) as { id: string }).id;
    };
    const received = async (t: PostsApp, organizationId: string) =>
      (await t.runtime.deps.store.db.selectFrom('events').selectAll().where('organization_id', '=', organizationId).where('type', '=', 'mention.received').execute()).map(
        (e) => JSON.parse(e.data) as { platform: string; accountId: string; platformPostId: string; comment: { id: string; text: string; username: string | null } },
      );

    test('with X_READS=1 a post naming the account becomes mention.received once; one from before the connection does not', async () => {
      const { organizationId } = await on.tenant();
      const acc = await addXAccount(on, organizationId);
      const early = await mention(on, `@${acc.username} are you open?`, 'early_bird');
      on.sandbox.clock.advance(20 * MINUTE);
      const id = await mention(on, `Lovely rye, @${acc.username}`, 'crumb_critic');
      await poll(on, clocks.on);
      await poll(on, clocks.on);
      const events = await received(on, organizationId);
      assert.deepEqual(
        events.map((e) => [e.platform, e.accountId, e.platformPostId, e.comment.id, e.comment.text, e.comment.username]),
        [['x', acc.id, id, id, `Lovely rye, @${acc.username}`, 'crumb_critic']],
      );
      assert.ok(!events.some((e) => e.comment.id === early));
    });

    test('more mentions between two polls than a page holds are all announced; the next poll reads on from the newest', async () => {
      const { organizationId } = await on.tenant();
      const acc = await addXAccount(on, organizationId);
      // The sandbox's clock past the service's, so what it makes now is after the connection.
      on.sandbox.clock.advance(Math.max(0, clocks.on.now() - on.sandbox.clock.now()) + MINUTE);
      const path = `/2/users/${acc.userId}/mentions`;
      const calls = (after: number) => on.sandbox.journal.list({ after, host: 'api.x.com', path });
      let seq = on.sandbox.journal.list().at(-1)?.seq ?? 0;
      const ids: string[] = [];
      for (let i = 0; i < 130; i++) ids.push(await mention(on, `@${acc.username} loaf ${i}`, 'crumb_critic'));
      await poll(on, clocks.on);
      const events = await received(on, organizationId);
      assert.deepEqual(events.map((e) => e.comment.id).sort(), [...ids].sort(), 'every mention, across two pages');
      // No mark yet: from the connection's time, then the next page.
      assert.deepEqual(calls(seq).map((e) => [typeof e.query.start_time, e.query.since_id, e.query.pagination_token === undefined]), [['string', undefined, true], ['string', undefined, false]]);
      seq = on.sandbox.journal.list().at(-1)?.seq ?? 0;
      const later = await mention(on, `@${acc.username} one more`, 'crumb_critic');
      await poll(on, clocks.on);
      assert.deepEqual(calls(seq).map((e) => [e.query.since_id, e.query.start_time]), [[ids.at(-1), undefined]], 'on from the newest mention read');
      assert.deepEqual((await received(on, organizationId)).map((e) => e.comment.id).filter((id) => !ids.includes(id)), [later]);
    });

    test('with X_READS off the poll makes no call and announces nothing', async () => {
      const { organizationId } = await off.tenant();
      const acc = await addXAccount(off, organizationId);
      off.sandbox.clock.advance(20 * MINUTE);
      await mention(off, `@${acc.username} hello`, 'crumb_critic');
      const start = off.sandbox.journal.list().at(-1)?.seq ?? 0;
      await poll(off, clocks.off);
      assert.equal(off.sandbox.journal.list({ after: start, host: 'api.x.com' }).length, 0, 'no call to X');
      assert.deepEqual(await received(off, organizationId), []);
    });
  });
}
