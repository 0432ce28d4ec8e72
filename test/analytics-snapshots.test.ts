// Snapshots (issue 17, point 3) on both stores, with the service's clock moved forward: the
// analytics.snapshot sweep, run by the real worker, records each published target's insights at
// about 1 hour, 24 hours and 7 days after publishing, skips a stage whose window has passed, keeps
// no read that failed for a reason that may pass (and takes it at the next tick), and post
// analytics then answer from the newest snapshot, saying when its values were taken.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { dueTargets, queueSnapshotSweep, STAGES, TICK_MS } from '../src/modules/analytics/snapshot-schedule.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { quickMetaProcessing } from './posts-meta-support.ts';
import { createPost, json, settled, startPostsApp, type ApiPost, type PostsApp } from './posts-support.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { addInsightsAccount, OffsetClock } from './analytics-support.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

for (const dialect of DIALECTS) {
  describe(`analytics snapshots [${dialect}]`, { skip: skipReason(dialect), concurrency: 1 }, () => {
    let t: PostsApp;
    let files: FileServer;
    let key: string;
    let org: string;
    const clock = new OffsetClock();

    before(async () => {
      t = await startPostsApp(dialect, { clock });
      quickMetaProcessing(t);
      files = await fileServer({ '/a.jpg': { body: samples.jpeg } });
      ({ key, organizationId: org } = await t.tenant());
    });
    after(async () => {
      await t.close();
      await files.close();
    });

    const db = () => t.runtime.deps.store.db;
    const stages = async (targetId: string) =>
      (await db().selectFrom('analytics_snapshots').select(['stage', 'taken_at', 'latest']).where('target_id', '=', targetId).orderBy('taken_at').execute()).map((r) => ({ stage: r.stage, takenAt: Number(r.taken_at), latest: r.latest }));
    const published = async (accountId: string): Promise<ApiPost> => {
      const res = await createPost(t, key, { content: 'Snapshot me', publishNow: true, platforms: [{ accountId, platformSpecificData: { mediaUrl: `${files.url}/a.jpg` } }] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return settled(t, key, res.body.post.id);
    };
    const sweepRunning = async () => (await db().selectFrom('jobs').select('id').where('kind', '=', 'analytics.snapshot').where('status', '=', 'running').execute()).length > 0;
    /**
     * Moves the service's clock, then lets the worker run the sweep that falls due, until `done`
     * and the sweep has ended: a sweep still running at the next jump of the clock would look
     * past its lease and be run a second time beside the next one.
     */
    const advanceAndSweep = async (ms: number, done: () => boolean | Promise<boolean>, what: string) => {
      await queueSnapshotSweep(db(), t.runtime.deps.store, clock.now());
      clock.advance(ms + TICK_MS);
      await waitFor(async () => (await done()) && !(await sweepRunning()), 10_000, what, 20);
    };
    const insightCalls = (after: number) => t.sandbox.journal.list({ after }).filter((e) => e.path.endsWith('/insights'));

    test('taken at 1 hour, 24 hours and 7 days; a missed stage is skipped; the answer says when', async () => {
      const ig = await addInsightsAccount(t, org, 'instagram');
      const first = await published(ig.id);
      const a = first.targets[0]?.id ?? '';
      const publishedAt = Number((await db().selectFrom('post_targets').select('published_at').where('id', '=', a).executeTakeFirstOrThrow()).published_at);

      let seq = t.sandbox.journal.list().at(-1)?.seq ?? 0;
      await advanceAndSweep(HOUR, async () => (await stages(a)).length === 1, 'the 1h snapshot');
      const [oneHour] = await stages(a);
      assert.equal(oneHour?.stage, '1h');
      assert.ok((oneHour?.takenAt ?? 0) - publishedAt >= HOUR && (oneHour?.takenAt ?? 0) - publishedAt < HOUR + 2 * TICK_MS, 'about an hour after publishing');
      assert.deepEqual(insightCalls(seq).map((e) => e.path.replace(/^\/v[\d.]+/, '')), [`/${first.targets[0]?.platformPostId ?? ''}/insights`]);

      // Published now; the clock next moves by a day, past its 1-hour window (as for a worker
      // that was down): it gets its 24-hour snapshot, not a day-old read labelled 1h.
      const second = await published(ig.id);
      const b = second.targets[0]?.id ?? '';

      await advanceAndSweep(DAY, async () => (await stages(a)).length === 2 && (await stages(b)).length === 1, 'the 24h snapshots');
      assert.deepEqual((await stages(a)).map((s) => [s.stage, s.latest]), [['1h', 0], ['24h', 1]]);
      assert.deepEqual((await stages(b)).map((s) => s.stage), ['24h']);

      seq = t.sandbox.journal.list().at(-1)?.seq ?? 0;
      await advanceAndSweep(6 * DAY, async () => (await stages(a)).length === 3 && (await stages(b)).length === 2, 'the 7d snapshots');
      assert.deepEqual((await stages(a)).map((s) => [s.stage, s.latest]), [['1h', 0], ['24h', 0], ['7d', 1]]);
      assert.deepEqual((await stages(b)).map((s) => s.stage), ['24h', '7d']);
      assert.equal(insightCalls(seq).length, 2, 'one read per due stage');

      const answer = await (await t.request(`/api/v1/analytics/posts/${first.id}?metrics=likes,reach`, { key })).json() as { targets: Array<{ source: string; stage: string; takenAt: string; metrics: Record<string, number> }> };
      const seven = (await stages(a)).at(-1);
      assert.deepEqual([answer.targets[0]?.source, answer.targets[0]?.stage, answer.targets[0]?.takenAt], ['snapshot', '7d', new Date(seven?.takenAt ?? 0).toISOString()]);
      assert.deepEqual(Object.keys(answer.targets[0]?.metrics ?? {}), ['likes', 'reach']);

      // Past the last stage, nothing is ever due again.
      for (const stage of STAGES) {
        for (const later of [clock.now(), clock.now() + 8 * DAY]) {
          const due = await dueTargets(db(), later, stage);
          assert.deepEqual(due.filter((d) => d.id === a || d.id === b), [], `${stage.stage} at +${later - clock.now()} ms`);
        }
      }
    });

    test('a read the platform refuses is kept with its error, once, without becoming the newest', async () => {
      const bare = await addInsightsAccount(t, org, 'instagram', { noInsights: true });
      const post = await published(bare.id);
      const target = post.targets[0]?.id ?? '';
      await advanceAndSweep(HOUR, async () => (await stages(target)).length === 1, 'the 1h snapshot');
      const [row] = await db().selectFrom('analytics_snapshots').selectAll().where('target_id', '=', target).execute();
      assert.deepEqual([row?.stage, row?.latest, row?.metrics, (JSON.parse(row?.errors ?? '[]') as Array<{ metric: string | null; code: string }>).map((e) => [e.metric, e.code])], ['1h', 0, '{}', [[null, 'missing_permission']]]);
      const answer = (await (await t.request(`/api/v1/analytics/posts/${post.id}`, { key })).json()) as { targets: Array<{ source: string; takenAt: string | null; errors: Array<{ code: string }> }> };
      assert.deepEqual([answer.targets[0]?.source, answer.targets[0]?.takenAt, answer.targets[0]?.errors.map((e) => e.code)], ['live', null, ['missing_permission']], 'read again, not answered from a failed read');
    });

    test('a read that failed for a reason that may pass is not kept, and is taken at the next tick', async () => {
      const ig = await addInsightsAccount(t, org, 'instagram');
      const post = await published(ig.id);
      const target = post.targets[0]?.id ?? '';
      const res = await fetch(`${t.url}/sandbox/_sandbox/faults`, { method: 'POST', headers: json, body: JSON.stringify({ path: `/${post.targets[0]?.platformPostId ?? ''}/insights`, kind: 'server_error', times: 1 }) });
      assert.equal(res.status, 200, await res.text());
      const seq = t.sandbox.journal.list().at(-1)?.seq ?? 0;
      await advanceAndSweep(HOUR, () => insightCalls(seq).length >= 1, 'the first attempt');
      assert.deepEqual(await stages(target), [], 'a 5xx is not a snapshot');
      await advanceAndSweep(0, async () => (await stages(target)).length === 1, 'the retried snapshot');
      assert.equal(insightCalls(seq).length, 2);
    });
  });
}
