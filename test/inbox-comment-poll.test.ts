// reddit comments, end to end on both stores (issue 14): reddit sends no comment webhooks, so the
// inbox.comment_poll job reads the comment trees of published reddit targets younger than 7 days
// and each comment a person wrote reaches a real receiver once, signed, as comment.received with
// the contract's data, however many polls run; the account's own comment emits nothing. The
// clock is moved by hand from tick to tick, and a worker runs each queued poll. Also: the poll is
// one standing job however many workers start, and two runs at once read a post once; a rate limit or a revoked token on one account
// leaves the other account's events flowing; older posts are polled less often and a week-old
// one not at all; large trees come with `more` stubs, which GET /posts/{id}/comments and the
// adapter's pages load through /api/morechildren, and deep threads with "continue this thread"
// stubs, read on with ?comment=.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { queueStandingJobs } from '../src/composition.ts';
import { createLogger } from '../src/http/logging.ts';
import { credentialsOf } from '../src/modules/accounts/credentials.ts';
import { pollDueTargets } from '../src/modules/inbox/comment-poll-job.ts';
import type { CommentPage } from '../src/platforms/types.ts';
import { personComments } from '../src/sandbox/reddit/comments.ts';
import { ManualClock } from './harness/clock.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { Receiver } from './harness/receiver.ts';
import { waitFor } from './harness/wait.ts';
import { addAccount, createPost, json, settled, startPostsApp, type ApiPost, type PostsApp } from './posts-support.ts';

const KIND = 'inbox.comment_poll';
const INTERVAL = 300_000;
const DAY = 86_400_000;

interface Delivered {
  id: string;
  event: string;
  data: { eventId: string; accountId: string; comment: { id: string } } & Record<string, unknown>;
}

for (const dialect of DIALECTS) {
  describe(`reddit comment polling [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let receiver: Receiver;
    let secret: string;
    let key: string;
    let org: string;
    // Mid-morning UTC, away from any tick.
    const clock = new ManualClock(Date.UTC(2031, 2, 3, 9, 1, 7));

    before(async () => {
      t = await startPostsApp(dialect, { clock });
      receiver = await new Receiver().start();
      ({ key, organizationId: org } = await t.tenant());
      const hook = await t.request('/api/v1/webhooks', { key, method: 'POST', headers: json, body: JSON.stringify({ url: receiver.url, events: ['comment.received'] }) });
      assert.equal(hook.status, 201);
      secret = ((await hook.json()) as { webhook: { secret: string } }).webhook.secret;
    });
    after(async () => {
      await receiver.stop();
      await t.close();
    });

    const db = () => t.runtime.deps.store.db;
    const mark = () => t.sandbox.journal.list().at(-1)?.seq ?? 0;
    const treeCalls = (seq: number, article: string) => t.sandbox.journal.list({ after: seq, host: 'oauth.reddit.com' }).filter((e) => e.path === `/comments/${article.slice(3)}`);
    const published = async (accountId: string, title: string, withKey = key): Promise<ApiPost> => {
      const res = await createPost(t, withKey, { content: title, publishNow: true, platforms: [{ accountId, platformSpecificData: { subreddit: 'sandbox', title } }] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const post = await settled(t, withKey, res.body.post.id);
      assert.equal(post.status, 'published', JSON.stringify(post));
      return post;
    };
    const comment = async (thingId: string, text: string, username: string): Promise<string> => {
      const res = await fetch(`${t.url}/sandbox/_sandbox/reddit/comments`, { method: 'POST', headers: json, body: JSON.stringify({ thingId, text, from: { username } }) });
      const body = (await res.json()) as { id: string; author: string };
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.equal(body.author, username);
      return body.id;
    };
    const pollJobs = () => db().selectFrom('jobs').selectAll().where('kind', '=', KIND).orderBy('run_at').execute();
    /** Moves the clock to the queued poll's tick, lets the worker run it, and waits until it is done. */
    const runPoll = async () => {
      const [job] = await pollJobs();
      assert.ok(job, 'a poll is queued');
      // Running already when a move of the clock made it due and the worker looked first.
      assert.ok(job.status === 'pending' || job.status === 'running', job.status);
      clock.advance(Math.max(0, job.run_at - clock.now()));
      t.worker?.wake();
      await waitFor(async () => !(await db().selectFrom('jobs').select('id').where('id', '=', job.id).executeTakeFirst()), 10_000, 'the poll to finish');
      // The webhook sends it queued are due now too.
      await waitFor(async () => (await db().selectFrom('jobs').select('id').where('kind', '=', 'webhook.send').execute()).length === 0, 10_000, 'the webhook sends');
    };
    /** The signed deliveries received so far, checked and parsed. */
    const delivered = (): Delivered[] =>
      receiver.received.map((r) => {
        const timestamp = String(r.headers['x-socialapi-timestamp']);
        assert.equal(r.headers['x-socialapi-signature'], createHmac('sha256', secret).update(`${timestamp}.${r.body}`).digest('hex'));
        return JSON.parse(r.body) as Delivered;
      });
    const deliveriesOf = (commentId: string) => delivered().filter((d) => d.data.comment.id === commentId);
    const pollAt = async (targetId: string) => (await db().selectFrom('post_targets').select('comment_poll_at').where('id', '=', targetId).executeTakeFirstOrThrow()).comment_poll_at;

    test('comments on a published reddit post arrive once each as comment.received; the account\'s own emits nothing; the poll is one standing job', async () => {
      const account = await addAccount(t, org, 'reddit');
      const post = await published(account.id, 'Fresh bread');
      const target = post.targets[0];
      const article = target?.platformPostId ?? '';
      assert.match(article, /^t3_/);

      // Several workers start: one poll, at the next tick.
      await queueStandingJobs(t.runtime.deps);
      await queueStandingJobs(t.runtime.deps);
      const jobs = await pollJobs();
      const tick = (Math.floor(clock.now() / INTERVAL) + 1) * INTERVAL;
      assert.deepEqual(jobs.map((j) => [j.run_at, j.dedupe_key]), [[tick, `${KIND}:${tick}`]]);

      const first = await comment(article, 'Looks great', 'crumb_fan');
      const reply = await comment(first, 'Is it sourdough?', 'dana_w');
      const own = await t.request(`/api/v1/comments/${first}/reply`, { key, method: 'POST', headers: json, body: JSON.stringify({ platformPostId: article, text: 'Thank you!' }) });
      assert.equal(own.status, 200);
      const ownId = ((await own.json()) as { id: string }).id;

      const seq = mark();
      await runPoll();
      const calls = treeCalls(seq, article);
      assert.equal(calls.length, 1, 'one tree read');
      assert.equal(calls[0]?.method, 'GET');
      assert.deepEqual([calls[0]?.query.sort, calls[0]?.query.limit, calls[0]?.status], ['old', '500', 200]);
      assert.match(calls[0]?.headers.authorization ?? '', /^bearer \*\*\*/);
      assert.deepEqual(t.sandbox.journal.list({ after: seq, path: '/api/morechildren' }), [], 'a small tree needs no more');

      const [got] = deliveriesOf(first);
      assert.ok(got, 'the comment was delivered');
      assert.equal(got.event, 'comment.received');
      assert.deepEqual(got.data, {
        eventId: got.id,
        platform: 'reddit',
        accountId: account.id,
        externalId: account.id,
        postId: post.id,
        platformPostId: article,
        comment: { id: first, text: 'Looks great', username: 'crumb_fan', parentId: null },
        receivedAt: new Date(clock.now()).toISOString(),
      });
      assert.deepEqual(deliveriesOf(reply).map((d) => d.data.comment), [{ id: reply, text: 'Is it sourdough?', username: 'dana_w', parentId: first }]);
      assert.deepEqual(deliveriesOf(ownId), [], "the account's own reply emits nothing");

      // More polls, one tick apart (a post younger than a day is due at every tick): nothing twice.
      for (let i = 0; i < 2; i++) await runPoll();
      assert.equal(treeCalls(seq, article).length, 3, 'polled at each of three ticks');
      const later = await comment(article, 'Open on Sunday?', 'sam_k');
      await runPoll();
      await runPoll();
      for (const id of [first, reply, later]) assert.equal(deliveriesOf(id).length, 1, `${id} delivered once`);
      const rows = await db().selectFrom('inbox_events').select(['kind', 'dedupe_key', 'platform']).where('account_id', '=', account.id).orderBy('id').execute();
      assert.deepEqual(rows.map((r) => [r.kind, r.dedupe_key, r.platform]), [['comment', first, 'reddit'], ['reply', reply, 'reddit'], ['comment', later, 'reddit']]);
      const listed = await t.request(`/api/v1/inbox/events?accountId=${account.id}`, { key });
      assert.deepEqual(((await listed.json()) as { events: Array<{ data: { comment: { id: string } } }> }).events.map((e) => e.data.comment.id), [later, reply, first]);
      // Always exactly one poll queued, at the next tick.
      assert.deepEqual((await pollJobs()).map((j) => j.run_at), [(Math.floor(clock.now() / INTERVAL) + 1) * INTERVAL]);
      assert.equal(await pollAt(target?.id ?? ''), Math.floor(clock.now() / INTERVAL) * INTERVAL + INTERVAL);
    });

    test('two runs at once, as two workers would, read each due post once', async () => {
      const account = await addAccount(t, org, 'reddit');
      const post = await published(account.id, 'Only once');
      const article = post.targets[0]?.platformPostId ?? '';
      const once = await comment(article, 'once please', 'pat_c');
      const seq = mark();
      const context = { signal: new AbortController().signal, log: createLogger('silent') };
      const claimed = await Promise.all([pollDueTargets(t.runtime.deps, context), pollDueTargets(t.runtime.deps, context)]);
      assert.ok(claimed.reduce((a, b) => a + b, 0) >= 1);
      const reads = t.sandbox.journal.list({ after: seq, host: 'oauth.reddit.com' }).filter((e) => e.path.startsWith('/comments/')).map((e) => e.path);
      assert.ok(reads.includes(`/comments/${article.slice(3)}`));
      assert.deepEqual(reads, [...new Set(reads)], 'no post read twice');
      await waitFor(async () => (await db().selectFrom('jobs').select('id').where('kind', '=', 'webhook.send').execute()).length === 0, 10_000, 'the webhook sends');
      assert.equal(deliveriesOf(once).length, 1);
    });

    test('a target whose account is gone is not polled again', async () => {
      const account = await addAccount(t, org, 'reddit');
      const post = await published(account.id, 'Orphan');
      const target = post.targets[0];
      const publishedAt = (await db().selectFrom('post_targets').select('published_at').where('id', '=', target?.id ?? '').executeTakeFirstOrThrow()).published_at ?? 0;
      await db().deleteFrom('accounts').where('id', '=', account.id).execute();
      const seq = mark();
      await runPoll();
      assert.deepEqual(treeCalls(seq, target?.platformPostId ?? ''), []);
      assert.equal(await pollAt(target?.id ?? ''), publishedAt + 7 * DAY);
    });

    test("a rate limit or a revoked token on one account does not stop another account's events", async () => {
      const a = await addAccount(t, org, 'reddit');
      const b = await addAccount(t, org, 'reddit');
      const postA = await published(a.id, 'Rye');
      const postB = await published(b.id, 'Spelt');
      const articleA = postA.targets[0]?.platformPostId ?? '';
      const articleB = postB.targets[0]?.platformPostId ?? '';
      const onA = await comment(articleA, 'rye please', 'pat_a');
      const onB = await comment(articleB, 'spelt please', 'pat_b');

      t.sandbox.faults.add({ host: 'oauth.reddit.com', path: `/comments/${articleA.slice(3)}`, kind: 'rate_limit', times: 1 });
      let seq = mark();
      await runPoll();
      assert.deepEqual(treeCalls(seq, articleA).map((c) => c.status), [429]);
      assert.equal(deliveriesOf(onB).length, 1, "b's comment arrives");
      assert.equal(deliveriesOf(onA).length, 0, "a's waits");
      // a waits at least one interval from the 429 (reddit said no reset time), then its comment arrives.
      const now = clock.now();
      assert.ok(((await pollAt(postA.targets[0]?.id ?? '')) ?? 0) >= now + INTERVAL);
      await runPoll();
      await runPoll();
      assert.equal(deliveriesOf(onA).length, 1, "a's comment arrives after the limit");

      // a's token is revoked: a is marked needs_reconnect and then skipped; b goes on.
      t.sandbox.revokeToken(a.token);
      const onA2 = await comment(articleA, 'still there?', 'pat_a');
      const onB2 = await comment(articleB, 'and rolls?', 'pat_b');
      seq = mark();
      await runPoll();
      assert.deepEqual(treeCalls(seq, articleA).map((c) => c.status), [401]);
      assert.equal(deliveriesOf(onB2).length, 1);
      const row = await db().selectFrom('accounts').select('status').where('id', '=', a.id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'needs_reconnect');
      seq = mark();
      await runPoll();
      assert.deepEqual(treeCalls(seq, articleA), [], 'an account that needs reconnecting is not called');
      assert.equal(treeCalls(seq, articleB).length, 1);
      assert.equal(deliveriesOf(onA2).length, 0);
    });

    test('large trees: GET /posts/{id}/comments and the adapter\'s pages load `more` stubs through /api/morechildren', async () => {
      // Another organization, without webhooks: 620 deliveries would only slow the suite.
      const other = await t.tenant();
      const account = await addAccount(t, other.organizationId, 'reddit');
      const post = await published(account.id, 'Big thread', other.key);
      const article = post.targets[0]?.platformPostId ?? '';
      // 20 top-level comments with 30 replies each: 620 comments, past reddit's 500 per tree.
      const expected: Array<[string, string | null]> = [];
      const tops = Array.from({ length: 20 }, (_, i) => personComments(t.sandbox, { thingId: article, text: `top ${i}`, username: `reader_${i}` }).id);
      for (const top of tops) {
        expected.push([top, null]);
        for (let j = 0; j < 30; j++) expected.push([personComments(t.sandbox, { thingId: top, text: `reply ${j}`, username: 'replier' }).id, top]);
      }
      const seq = mark();
      const res = await t.request(`/api/v1/posts/${post.id}/comments`, { key: other.key });
      assert.equal(res.status, 200);
      const body = (await res.json()) as { comments: Array<{ id: string; parentId: string | null }>; errors: unknown[] };
      assert.deepEqual(body.errors, []);
      assert.deepEqual(body.comments.map((c) => [c.id, c.parentId]), expected, 'every comment, each reply after its parent');
      const tree = treeCalls(seq, article);
      assert.equal(tree.length, 1);
      const more = t.sandbox.journal.list({ after: seq, path: '/api/morechildren' });
      assert.ok(more.length >= 1 && more.length <= 3, `morechildren calls: ${more.length}`);
      for (const call of more) {
        assert.deepEqual([call.method, call.query.link_id, call.query.api_type, call.status], ['GET', article, 'json', 200]);
        assert.ok(String(call.query.children).split(',').length <= 100);
      }

      // The adapter's own pages: `limit` top-level comments each, the cursor after the last one.
      const reader = t.runtime.deps.platforms.of('reddit')?.commentReader;
      assert.ok(reader);
      const row = await db().selectFrom('accounts').selectAll().where('id', '=', account.id).executeTakeFirstOrThrow();
      const credentials = credentialsOf(row, t.runtime.deps.sealer);
      const pages: string[][] = [];
      for (let after: string | null = null, i = 0; i < 10; i++) {
        const page: CommentPage = await reader.list(credentials, article, { limit: 7, after });
        const roots = page.comments.filter((c) => c.parentId === null).map((c) => c.id);
        assert.equal(page.comments.length, roots.length * 31, 'each root with its 30 replies');
        pages.push(roots);
        after = page.after;
        if (after === null) break;
      }
      assert.deepEqual(pages, [tops.slice(0, 7), tops.slice(7, 14), tops.slice(14)]);

      // The poll reads the same: all 620, once.
      await runPoll();
      await runPoll();
      const recorded = await db().selectFrom('inbox_events').select('dedupe_key').where('account_id', '=', account.id).execute();
      assert.equal(recorded.length, 620);
    });

    test('a thread deeper than reddit\'s depth limit is read on with ?comment= ("continue this thread")', async () => {
      const account = await addAccount(t, org, 'reddit');
      const post = await published(account.id, 'Deep thread');
      const article = post.targets[0]?.platformPostId ?? '';
      // One chain of 25 replies: reddit cuts it at depth 10, and the thread read from level 9 again at its own depth 10.
      const chain = [personComments(t.sandbox, { thingId: article, text: 'level 0', username: 'chain_0' }).id];
      for (let i = 1; i <= 25; i++) chain.push(personComments(t.sandbox, { thingId: chain[i - 1] ?? '', text: `level ${i}`, username: `chain_${i}` }).id);
      const seq = mark();
      const res = await t.request(`/api/v1/posts/${post.id}/comments`, { key });
      const body = (await res.json()) as { comments: Array<{ id: string; parentId: string | null }> };
      assert.deepEqual(body.comments.map((c) => [c.id, c.parentId]), chain.map((id, i) => [id, i === 0 ? null : chain[i - 1]]));
      const reads = treeCalls(seq, article);
      assert.deepEqual(reads.map((r) => r.query.comment), [undefined, chain[9]?.slice(3), chain[18]?.slice(3)]);
      await runPoll();
      assert.deepEqual(chain.map((id) => deliveriesOf(id).length), chain.map(() => 1));
    });

    test('older posts are polled less often, and a post older than 7 days not at all', async () => {
      const account = await addAccount(t, org, 'reddit');
      const post = await published(account.id, 'Ageing');
      const target = post.targets[0]?.id ?? '';
      const article = post.targets[0]?.platformPostId ?? '';
      await runPoll();
      // A day and a bit later: polled every second tick.
      clock.advance(DAY + INTERVAL);
      const seq = mark();
      for (let i = 0; i < 4; i++) await runPoll();
      assert.equal(treeCalls(seq, article).length, 2, 'two polls in four ticks');
      // Polled at the first and third of those ticks, so due again at the next one.
      assert.equal(await pollAt(target), Math.floor(clock.now() / INTERVAL) * INTERVAL + INTERVAL);

      // Seven days on: no call, and a new comment emits nothing.
      clock.advance(7 * DAY);
      const late = await comment(article, 'late to the party', 'slow_reader');
      const after = mark();
      await runPoll();
      await runPoll();
      assert.deepEqual(treeCalls(after, article), []);
      assert.equal(deliveriesOf(late).length, 0);
    });
  });
}
