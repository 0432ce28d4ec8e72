// Bluesky sends no webhooks (DESIGN "Comments and inbox", the bluesky row), so both of its inbox
// events are polled, on both stores: people's replies to a published post through the comment
// poll (comment.received), and the account's notifications of mentions and quotes through the
// mention poll (mention.received) — each once, however many polls read it; the account's own
// reply emits nothing, and a mention made before the account was connected is not announced.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { queueStandingJobs } from '../src/composition.ts';
import { ManualClock } from './harness/clock.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { control, newBlueskyPerson, connectBluesky } from './bluesky-support.ts';
import { personReplies, publishTo } from './bluesky-engagement-support.ts';
import { json, startPostsApp, type PostsApp } from './posts-support.ts';

const MINUTE = 60_000;

interface Received {
  eventId: string;
  platform: string;
  accountId: string;
  postId: string | null;
  platformPostId: string | null;
  comment: { id: string; text: string; username: string | null; parentId: string | null };
}

for (const dialect of DIALECTS) {
  describe(`bluesky replies and mentions polled into the inbox [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let key: string;
    let org: string;
    // The service runs ten minutes ahead of the sandbox, so what the sandbox makes now is from before the connection.
    const clock = new ManualClock(Date.now() + 10 * MINUTE);

    before(async () => {
      t = await startPostsApp(dialect, { clock });
      ({ key, organizationId: org } = await t.tenant());
    });
    after(() => t.close());

    const db = () => t.runtime.deps.store.db;
    const runJob = async (kind: string) => {
      const [job] = await db().selectFrom('jobs').selectAll().where('kind', '=', kind).orderBy('run_at').execute();
      assert.ok(job, `${kind} is queued`);
      clock.advance(Math.max(0, job.run_at - clock.now()));
      t.worker?.wake();
      await waitFor(async () => !(await db().selectFrom('jobs').select('id').where('id', '=', job.id).executeTakeFirst()), 10_000, `${kind} to finish`);
    };
    const polls = async () => {
      await runJob('inbox.comment_poll');
      await runJob('inbox.mention_poll');
    };
    const events = async (type: string) =>
      (await db().selectFrom('events').selectAll().where('organization_id', '=', org).where('type', '=', type).orderBy('created_at').execute()).map((e) => JSON.parse(e.data) as Received);

    test('a reply becomes comment.received and a mention and a quote mention.received, once each across polls', async () => {
      const person = newBlueskyPerson(t.sandbox);
      await control(t, 'mentions', { text: 'Before they joined', from: 'friend.bsky.social', mention: person.handle });
      const accountId = await connectBluesky(t, key, person);
      t.sandbox.clock.advance(20 * MINUTE);
      const { postId, uri } = await publishTo(t, key, accountId, 'Rye loaves today');
      const reply = await personReplies(t, uri, 'Saving one for me?');
      const own = await fetch(`${t.url}/api/v1/inbox/comments`, { method: 'POST', headers: { ...json, authorization: `Bearer ${key}` }, body: JSON.stringify({ accountId, platformPostId: uri, text: 'Of course' }) });
      assert.equal(own.status, 200, await own.clone().text());
      const mention = String((await control(t, 'mentions', { text: 'Best rye in town', from: 'reader.bsky.social', mention: person.handle })).uri);
      const quote = String((await control(t, 'quotes', { postId: uri, text: 'Go get some', from: 'friend.bsky.social' })).uri);
      await queueStandingJobs(t.runtime.deps);
      await polls();
      const comments = await events('comment.received');
      assert.deepEqual(
        comments.map((e) => [e.platform, e.accountId, e.postId, e.platformPostId, e.comment]),
        [['bluesky', accountId, postId, uri, { id: reply, text: 'Saving one for me?', username: 'friend.bsky.social', parentId: null }]],
      );
      const mentions = await events('mention.received');
      assert.deepEqual(
        mentions.map((e) => [e.platform, e.accountId, e.platformPostId, e.comment.id, e.comment.text, e.comment.username, e.comment.parentId]).sort(),
        [
          ['bluesky', accountId, mention, mention, `Best rye in town @${person.handle}`, 'reader.bsky.social', null],
          ['bluesky', accountId, quote, quote, 'Go get some', 'friend.bsky.social', null],
        ].sort(),
      );
      assert.ok(t.sandbox.journal.list({ host: 'bsky.social', path: '/xrpc/app.bsky.notification.listNotifications' }).some((e) => String(e.query.reasons) === 'mention,quote'));
      await polls();
      await polls();
      assert.equal((await events('comment.received')).length, 1, 'read again, emitted once');
      assert.equal((await events('mention.received')).length, 2, 'read again, emitted once');
      // Later activity arrives on a later poll.
      const under = await personReplies(t, reply, 'Two please', 'reader.bsky.social');
      const later = String((await control(t, 'mentions', { text: 'Again', from: 'friend.bsky.social', mention: person.handle })).uri);
      await polls();
      assert.deepEqual((await events('comment.received')).map((e) => [e.comment.id, e.comment.parentId]), [[reply, null], [under, reply]]);
      assert.deepEqual((await events('mention.received')).map((e) => e.comment.id).filter((id) => id === later), [later]);
      const inbox = await db().selectFrom('inbox_events').select(['kind', 'dedupe_key']).where('account_id', '=', accountId).execute();
      assert.deepEqual(inbox.map((r) => r.kind).sort(), ['comment', 'mention', 'mention', 'mention', 'reply']);
      // GET /accounts/{id}/mentions reads the same notifications live, newest first (the one from before the connection too).
      const listed = await fetch(`${t.url}/api/v1/accounts/${accountId}/mentions?limit=3`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(listed.status, 200, await listed.clone().text());
      const body = (await listed.json()) as { mentions: Array<{ mediaId: string; platform: string; caption: string | null; username: string | null; permalink: string | null }> };
      const rows = body.mentions.map((m) => [m.mediaId, m.platform, m.username]);
      assert.deepEqual(rows[0], [later, 'bluesky', 'friend.bsky.social']);
      // The mention and the quote may share a millisecond: their order is Bluesky's.
      assert.deepEqual(rows.slice(1).sort(), [[quote, 'bluesky', 'friend.bsky.social'], [mention, 'bluesky', 'reader.bsky.social']].sort());
      assert.match(body.mentions[0]?.permalink ?? '', /bsky\.app\/profile\/friend\.bsky\.social\/post\/[a-z2-7]{13}$/);
    });

    test('an account whose session is gone is marked needs_reconnect by the mention poll and then left alone', async () => {
      const person = newBlueskyPerson(t.sandbox);
      const accountId = await connectBluesky(t, key, person);
      await control(t, 'app-passwords/revoke', { actor: person.handle });
      await queueStandingJobs(t.runtime.deps);
      await runJob('inbox.mention_poll');
      const row = await db().selectFrom('accounts').select('status').where('id', '=', accountId).executeTakeFirstOrThrow();
      assert.equal(row.status, 'needs_reconnect');
      // The other test's account still answers 200: the refused reads (400 InvalidToken) are this account's.
      const calls = () => t.sandbox.journal.list({ host: 'bsky.social', path: '/xrpc/app.bsky.notification.listNotifications' }).filter((e) => e.status === 400).length;
      const before = calls();
      assert.equal(before, 1);
      await runJob('inbox.mention_poll');
      assert.equal(calls(), before);
    });

    test('more mentions between two polls than a page holds are all announced; the next poll stops at the newest read', async () => {
      const person = newBlueskyPerson(t.sandbox);
      const accountId = await connectBluesky(t, key, person);
      // The sandbox's clock past the service's, so what it makes now is after the connection.
      t.sandbox.clock.advance(Math.max(0, clock.now() - t.sandbox.clock.now()) + MINUTE);
      const uris: string[] = [];
      for (let i = 0; i < 130; i++) uris.push(String((await control(t, 'mentions', { text: `Loaf ${i}`, from: 'reader.bsky.social', mention: person.handle })).uri));
      const paged = (after: number) => t.sandbox.journal.list({ after, host: 'bsky.social', path: '/xrpc/app.bsky.notification.listNotifications' }).filter((e) => e.query.cursor !== undefined);
      let seq = t.sandbox.journal.list().at(-1)?.seq ?? 0;
      await queueStandingJobs(t.runtime.deps);
      await runJob('inbox.mention_poll');
      const mine = async () => (await events('mention.received')).filter((e) => e.accountId === accountId).map((e) => e.comment.id);
      assert.deepEqual((await mine()).sort(), [...uris].sort(), 'every mention, across two pages');
      assert.ok(paged(seq).length >= 1, 'the second page was read');
      const { mark } = await db().selectFrom('mention_polls').select('mark').where('account_id', '=', accountId).executeTakeFirstOrThrow();
      assert.ok(mark && !Number.isNaN(Date.parse(mark)), `the newest notification's indexedAt is kept: ${String(mark)}`);
      seq = t.sandbox.journal.list().at(-1)?.seq ?? 0;
      t.sandbox.clock.advance(1000);
      const later = String((await control(t, 'mentions', { text: 'One more', from: 'friend.bsky.social', mention: person.handle })).uri);
      await runJob('inbox.mention_poll');
      assert.deepEqual(paged(seq), [], 'the first page reached the mark');
      assert.deepEqual((await mine()).filter((id) => !uris.includes(id)), [later]);
    });
  });
}
