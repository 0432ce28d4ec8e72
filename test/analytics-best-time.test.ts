// Best time (issue 17, point 4) on both stores, from a known history written into the store: the
// average engagement per UTC (weekday, hour) slot of the account's published targets of the last
// `days`, from each target's newest snapshot (a target without one counts 0), with how many posts
// each slot rests on; under 10 posts, the instagram followers online (as the sandbox reports
// them), then the platform's defaults; and the answer says which.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../src/lib/ids.ts';
import type { SnapshotStage } from '../src/db/schema.ts';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { startPostsApp, type PostsApp } from './posts-support.ts';
import { addInsightsAccount } from './analytics-support.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Slot {
  weekday: number;
  hour: number;
  score: number;
  posts: number;
}
interface BestTime {
  accountId: string;
  days: number;
  basis: string;
  posts: number;
  slots: Slot[];
}

/** The most recent UTC time before `now` that falls on `weekday` (0 = Monday) at `hour`, `weeksAgo` weeks back. */
function slotTime(now: number, weekday: number, hour: number, weeksAgo: number): number {
  const day = new Date(now);
  const today = (day.getUTCDay() + 6) % 7;
  const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  let at = midnight - ((today - weekday + 7) % 7) * DAY + hour * HOUR + 7 * 60_000;
  if (at > now) at -= 7 * DAY;
  return at - weeksAgo * 7 * DAY;
}

for (const dialect of DIALECTS) {
  describe(`analytics best time [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let key: string;
    let org: string;

    before(async () => {
      t = await startPostsApp(dialect);
      ({ key, organizationId: org } = await t.tenant());
    });
    after(() => t.close());

    const get = async (query: string): Promise<{ status: number; body: BestTime }> => {
      const res = await t.request(`/api/v1/analytics/best-time?${query}`, { key });
      return { status: res.status, body: (await res.json()) as BestTime };
    };

    /** A published target at `at` with snapshots of these engagements, oldest first (the last is the newest). */
    async function history(accountId: string, platform: string, at: number, engagements: number[], status: 'published' | 'failed' = 'published'): Promise<void> {
      const { db } = t.runtime.deps.store;
      const postId = newId('post');
      const targetId = newId('target');
      await db.insertInto('posts').values({ id: postId, organization_id: org, content: 'history', status: status === 'published' ? 'published' : 'failed', scheduled_for: null, approved_at: null, rejected_reason: null, api_key_id: null, created_at: at, updated_at: at }).execute();
      await db
        .insertInto('post_targets')
        .values({
          id: targetId, post_id: postId, organization_id: org, position: 0, account_id: accountId, platform, input: '{}', options: '{}', warnings: '[]',
          status, attempts: 1, next_attempt_at: null, released_next: 1, progress: '{}', platform_post_id: status === 'published' ? `p-${targetId}` : null,
          url: null, error: null, published_at: status === 'published' ? at : null, updated_at: at,
        })
        .execute();
      const stagesOf: SnapshotStage[] = ['1h', '24h', '7d'];
      for (const [i, engagement] of engagements.entries()) {
        await db.insertInto('analytics_snapshots').values({
          target_id: targetId, stage: stagesOf[i] ?? 'refresh', organization_id: org, account_id: accountId, published_at: at, taken_at: at + (i + 1) * HOUR,
          metrics: JSON.stringify({ likes: engagement }), unsupported: '[]', errors: '[]', engagement, latest: i === engagements.length - 1 ? 1 : 0,
        }).execute();
      }
    }

    test("the account's own posts: average engagement per UTC slot from the newest snapshot, best first, with the posts each rests on", async () => {
      const rd = await addInsightsAccount(t, org, 'reddit');
      const now = t.runtime.deps.clock.now();
      // Tuesday 14:00 UTC: 30, 50 and 40 (the newest of 5 then 40) → 40.
      await history(rd.id, 'reddit', slotTime(now, 1, 14, 0), [30]);
      await history(rd.id, 'reddit', slotTime(now, 1, 14, 1), [10, 50]);
      await history(rd.id, 'reddit', slotTime(now, 1, 14, 2), [5, 40]);
      // Thursday 09:00 UTC: 100 and one without a snapshot yet (0) → 50.
      await history(rd.id, 'reddit', slotTime(now, 3, 9, 0), [100]);
      await history(rd.id, 'reddit', slotTime(now, 3, 9, 1), []);
      // Monday 20:00 UTC: five posts of 10 → 10.
      for (let week = 0; week < 5; week++) await history(rd.id, 'reddit', slotTime(now, 0, 20, week), [10]);
      // Outside the last 90 days, and a target that failed: not counted.
      await history(rd.id, 'reddit', now - 100 * DAY, [1000]);
      await history(rd.id, 'reddit', slotTime(now, 6, 8, 0), [999], 'failed');

      const answer = await get(`accountId=${rd.id}`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(answer.body, {
        accountId: rd.id,
        days: 90,
        basis: 'posts',
        posts: 10,
        slots: [
          { weekday: 3, hour: 9, score: 50, posts: 2 },
          { weekday: 1, hour: 14, score: 40, posts: 3 },
          { weekday: 0, hour: 20, score: 10, posts: 5 },
        ],
      });
      const wider = await get(`accountId=${rd.id}&days=120`);
      assert.deepEqual([wider.body.posts, wider.body.slots.length, wider.body.slots[0]?.score], [11, 4, 1000], 'the older post counts in a wider range');
    });

    test('under 10 posts: the instagram followers online, as the sandbox reports them', async () => {
      const ig = await addInsightsAccount(t, org, 'instagram');
      await history(ig.id, 'instagram', t.runtime.deps.clock.now() - DAY, [20]);
      const answer = await get(`accountId=${ig.id}&days=30`);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual([answer.body.basis, answer.body.posts, answer.body.days], ['online_followers', 1, 30]);
      const online = (await (await t.request(`/api/v1/analytics/accounts/${ig.id}/online-followers`, { key })).json()) as { days: Array<{ endTime: string; hours: number[] }> };
      // The expected slots, computed here from the sandbox's own answer: each day's counts are for the day that ends at its end time.
      const expected = new Map<string, { total: number; n: number }>();
      for (const day of online.days) {
        const weekday = (new Date(Date.parse(day.endTime) - 12 * HOUR).getUTCDay() + 6) % 7;
        day.hours.forEach((value, hour) => {
          const slot = expected.get(`${weekday}:${hour}`) ?? { total: 0, n: 0 };
          expected.set(`${weekday}:${hour}`, { total: slot.total + value, n: slot.n + 1 });
        });
      }
      assert.equal(answer.body.slots.length, expected.size);
      for (const slot of answer.body.slots) {
        const e = expected.get(`${slot.weekday}:${slot.hour}`);
        assert.equal(slot.score, Math.round(((e?.total ?? 0) / (e?.n ?? 1)) * 100) / 100);
        assert.equal(slot.posts, 0);
      }
      const scores = answer.body.slots.map((s) => s.score);
      assert.deepEqual(scores, [...scores].sort((a, b) => b - a), 'best first');
    });

    test('under 10 posts and no followers online: the platform defaults; a failing fallback falls through to them', async () => {
      const rd = await addInsightsAccount(t, org, 'reddit');
      const answer = await get(`accountId=${rd.id}`);
      assert.deepEqual([answer.body.basis, answer.body.posts, answer.body.slots[0]], ['default', 0, { weekday: 0, hour: 13, score: 100, posts: 0 }]);
      const small = await addInsightsAccount(t, org, 'instagram', { followers: 50 });
      const fallback = await get(`accountId=${small.id}`);
      assert.equal(fallback.body.basis, 'default', 'online followers need 100 followers');
      const fb = await addInsightsAccount(t, org, 'facebook');
      assert.equal((await get(`accountId=${fb.id}`)).body.basis, 'default');
    });
  });
}
