// The analytics operations (issue 17) over HTTP against the in-process sandbox, on both stores:
// post insights per published target on each platform (live, then from the snapshot, refresh=1
// again), account insights, demographics and followers online where a platform has them and
// not_supported without a platform call where it has not; a renamed (retired) metric failing
// alone beside the others; the requests that reached the sandbox; missing permission 403,
// reconnect 409, another organization 404, and 400s naming the field.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS, skipReason } from './harness/databases.ts';
import { quickMetaProcessing } from './posts-meta-support.ts';
import { createPost, json, settled, startPostsApp, type ApiPost, type PostsApp } from './posts-support.ts';
import { fileServer, samples, type FileServer } from './sandbox/helpers.ts';
import { addInsightsAccount } from './analytics-support.ts';

interface Failure {
  metric: string | null;
  message: string;
  code?: string;
}
interface TargetInsights {
  targetId: string;
  accountId: string;
  platform: string;
  platformPostId: string;
  takenAt: string | null;
  source: string;
  stage: string | null;
  metrics: Record<string, number>;
  unsupported: string[];
  errors: Failure[];
}
interface Answer {
  postId?: string;
  targets?: TargetInsights[];
  metrics?: Array<{ metric: string; period: string; total: number | null; values: Array<{ endTime: string; value: number }>; breakdown: Array<{ key: string; value: number }> }>;
  unsupported?: string[];
  errors?: Failure[];
  total?: number;
  values?: Array<{ key: string; value: number }>;
  breakdown?: string;
  timeframe?: string | null;
  days?: Array<{ endTime: string; hours: number[] }>;
  hours?: Array<{ hour: number; value: number }>;
  error?: { message: string; code?: string };
}

for (const dialect of DIALECTS) {
  describe(`analytics operations [${dialect}]`, { skip: skipReason(dialect) }, () => {
    let t: PostsApp;
    let files: FileServer;
    let key: string;
    let org: string;

    before(async () => {
      t = await startPostsApp(dialect);
      quickMetaProcessing(t);
      t.sandbox.configureApp({ platform: 'tiktok', clientId: 'tiktok-client', audited: true });
      files = await fileServer({ '/a.jpg': { body: samples.jpeg }, '/c.mp4': { body: samples.mp4, type: 'video/mp4' } });
      ({ key, organizationId: org } = await t.tenant());
    });
    after(async () => {
      await t.close();
      await files.close();
    });

    const mark = () => t.sandbox.journal.list().at(-1)?.seq ?? 0;
    const callsSince = (seq: number) => t.sandbox.journal.list({ after: seq }).filter((e) => !e.path.startsWith('/_sandbox')).map((e) => [e.method, e.path.replace(/^\/v[\d.]+/, ''), e.query] as const);
    const api = async (path: string, apiKey = key): Promise<{ status: number; body: Answer }> => {
      const res = await t.request(`/api/v1${path}`, { key: apiKey });
      return { status: res.status, body: (await res.json()) as Answer };
    };
    const control = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${t.url}/sandbox/_sandbox/${path}`, { method, ...(body === undefined ? {} : { headers: json, body: JSON.stringify(body) }) });
      assert.equal(res.status, 200, await res.text());
    };
    const published = async (platforms: unknown[], content = 'Fresh bread today'): Promise<ApiPost> => {
      const res = await createPost(t, key, { content, publishNow: true, platforms });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const post = await settled(t, key, res.body.post.id);
      assert.equal(post.status, 'published', JSON.stringify(post));
      return post;
    };
    const code = (res: { status: number; body: Answer }) => [res.status, res.body.error?.code ?? res.body.error?.message];
    const photo = () => ({ mediaUrl: `${files.url}/a.jpg` });

    test('instagram: post insights live, then from the snapshot, refresh=1 reads again; metrics narrow the answer', async () => {
      const ig = await addInsightsAccount(t, org, 'instagram');
      const post = await published([{ accountId: ig.id, platformSpecificData: photo() }]);
      const mediaId = post.targets[0]?.platformPostId ?? '';

      let seq = mark();
      const live = await api(`/analytics/posts/${post.id}`);
      assert.equal(live.status, 200, JSON.stringify(live.body));
      const [target] = live.body.targets ?? [];
      assert.deepEqual([target?.platform, target?.platformPostId, target?.source, target?.stage], ['instagram', mediaId, 'live', null]);
      assert.deepEqual(Object.keys(target?.metrics ?? {}).sort(), ['comments', 'follows', 'interactions', 'likes', 'profileVisits', 'reach', 'saves', 'shares', 'views']);
      assert.equal(target?.metrics.comments, 0, 'no comments yet');
      assert.deepEqual([target?.unsupported, target?.errors], [['replies'], []], 'a feed post has no replies (a story metric)');
      assert.match(target?.takenAt ?? '', /^\d{4}-\d\d-\d\dT/);
      const calls = callsSince(seq);
      assert.deepEqual(calls.map(([m, p]) => [m, p]), [['GET', `/${mediaId}`], ['GET', `/${mediaId}/insights`]]);
      assert.equal(calls[1]?.[2].metric, 'views,reach,likes,comments,shares,saved,total_interactions,profile_visits,follows', "Instagram's own names");

      seq = mark();
      const again = await api(`/analytics/posts/${post.id}?metrics=likes,saves,replies`);
      assert.deepEqual(callsSince(seq), [], 'answered from the snapshot');
      const [stored] = again.body.targets ?? [];
      assert.deepEqual([stored?.source, stored?.stage, stored?.takenAt, stored?.metrics, stored?.unsupported], ['snapshot', 'refresh', target?.takenAt, { likes: target?.metrics.likes, saves: target?.metrics.saves }, ['replies']]);

      await control('POST', 'meta/comments', { objectId: mediaId, message: 'lovely', from: { username: 'dana.w' } });
      seq = mark();
      const fresh = await api(`/analytics/posts/${post.id}?metrics=comments&refresh=1`);
      assert.deepEqual([fresh.body.targets?.[0]?.source, fresh.body.targets?.[0]?.metrics], ['live', { comments: 1 }]);
      assert.equal(callsSince(seq).length, 2);
      const row = await t.runtime.deps.store.db.selectFrom('analytics_snapshots').selectAll().where('target_id', '=', target?.targetId ?? '').execute();
      assert.deepEqual(row.map((r) => [r.stage, r.latest, (JSON.parse(r.metrics) as Record<string, number>).comments]), [['refresh', 1, 1]], 'refresh replaced the stored read');
      assert.deepEqual(code(await api(`/analytics/posts/${post.id}?metrics=likes,clout`)), [400, 'metrics: item 2 is not one of our metric names (views, reach, likes, comments, shares, saves, replies, reposts, quotes, clicks, interactions, profileVisits, follows, videoViews, score, upvoteRatio, followers, newFollowers, unfollows, profileViews, websiteClicks, accountsEngaged, videos, watchTimeMinutes, subscribersGained)']);
    });

    test('instagram: account insights, demographics, followers online; under 100 followers demographics are not_supported', async () => {
      const ig = await addInsightsAccount(t, org, 'instagram');
      let seq = mark();
      const insights = await api(`/analytics/accounts/${ig.id}?metrics=reach,likes,newFollowers,followers,videos&since=2026-11-01&until=2026-11-03`);
      assert.equal(insights.status, 200, JSON.stringify(insights.body));
      assert.deepEqual(insights.body.metrics?.map((m) => m.metric), ['reach', 'likes', 'newFollowers', 'followers']);
      assert.deepEqual(insights.body.unsupported, ['videos']);
      assert.equal(insights.body.metrics?.find((m) => m.metric === 'followers')?.total, 1200);
      assert.equal(insights.body.metrics?.find((m) => m.metric === 'newFollowers')?.values.length, 2, 'a day series');
      const calls = callsSince(seq);
      assert.deepEqual(calls.map(([m, p, q]) => [m, p, q.metric, q.metric_type, q.period, q.since]), [
        ['GET', `/${ig.platformUserId}/insights`, 'reach,likes', 'total_value', 'day', String(Date.UTC(2026, 10, 1) / 1000)],
        ['GET', `/${ig.platformUserId}/insights`, 'follower_count', 'time_series', 'day', String(Date.UTC(2026, 10, 1) / 1000)],
        ['GET', `/${ig.platformUserId}`, undefined, undefined, undefined, undefined],
      ]);

      seq = mark();
      assert.deepEqual(code(await api(`/analytics/accounts/${ig.id}?since=2026-01-01&until=2026-03-01`)), [400, 'invalid_request']);
      assert.deepEqual(callsSince(seq), [], 'a range Instagram refuses is not sent');
      const demo = await api(`/analytics/accounts/${ig.id}/demographics?breakdown=country`);
      assert.equal(demo.status, 200, JSON.stringify(demo.body));
      assert.deepEqual([demo.body.breakdown, demo.body.timeframe, demo.body.values?.map((v) => v.key).sort()], ['country', 'this_month', ['BR', 'DE', 'FR', 'GB', 'IN', 'US']]);
      assert.equal(demo.body.total, demo.body.values?.reduce((s, v) => s + v.value, 0));
      assert.deepEqual(callsSince(seq).map(([, p, q]) => [p, q.metric, q.breakdown, q.timeframe]), [[`/${ig.platformUserId}`, undefined, undefined, undefined], [`/${ig.platformUserId}/insights`, 'follower_demographics', 'country', 'this_month']]);
      assert.equal((await api(`/analytics/accounts/${ig.id}/demographics?breakdown=age&metric=engaged&timeframe=this_week`)).status, 200);

      const online = await api(`/analytics/accounts/${ig.id}/online-followers`);
      assert.equal(online.status, 200, JSON.stringify(online.body));
      assert.equal(online.body.hours?.length, 24);
      assert.ok((online.body.days?.length ?? 0) >= 1 && online.body.days?.every((d) => d.hours.length === 24));

      const small = await addInsightsAccount(t, org, 'instagram', { followers: 99 });
      seq = mark();
      const refused = await api(`/analytics/accounts/${small.id}/demographics?breakdown=gender`);
      assert.deepEqual(code(refused), [400, 'not_supported']);
      assert.match(refused.body.error?.message ?? '', /100 followers; this account has 99/);
      assert.deepEqual(callsSince(seq).map(([, p, q]) => [p, q.fields]), [[`/${small.platformUserId}`, 'followers_count']], 'only the followers count was read');
      assert.deepEqual(code(await api(`/analytics/accounts/${ig.id}/demographics`)), [400, 'query.breakdown: required']);
      assert.deepEqual(code(await api(`/analytics/accounts/${ig.id}/demographics?breakdown=shoe_size`)), [400, 'breakdown: one of age, city, country, gender']);
    });

    test('a metric the platform renamed fails alone, beside the values of the others', async () => {
      const fb = await addInsightsAccount(t, org, 'facebook');
      const post = await published([{ accountId: fb.id }]);
      const postId = post.targets[0]?.platformPostId ?? '';
      await control('POST', 'insights/retired', { metric: 'post_clicks' });
      try {
        const seq = mark();
        const answer = await api(`/analytics/posts/${post.id}?metrics=views,clicks,likes,comments,shares`);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        const [target] = answer.body.targets ?? [];
        assert.deepEqual(Object.keys(target?.metrics ?? {}).sort(), ['comments', 'likes', 'shares', 'views']);
        assert.deepEqual(target?.errors.map((e) => [e.metric, e.code]), [['clicks', 'invalid_request']]);
        assert.match(target?.errors[0]?.message ?? '', /metric/);
        assert.deepEqual(callsSince(seq).map(([, p, q]) => [p, q.metric ?? q.fields]), [
          // A first read takes every metric the platform has (it is kept as the snapshot): refused as
          // a whole, then each alone.
          [`/${postId}/insights`, 'post_media_view,post_total_media_view_unique,post_reactions_by_type_total,post_clicks,post_video_views'],
          [`/${postId}/insights`, 'post_media_view'],
          [`/${postId}/insights`, 'post_total_media_view_unique'],
          [`/${postId}/insights`, 'post_reactions_by_type_total'],
          [`/${postId}/insights`, 'post_clicks'],
          [`/${postId}/insights`, 'post_video_views'],
          [`/${postId}`, 'shares,comments.limit(0).summary(true)'],
        ]);
        const account = await api(`/analytics/accounts/${fb.id}?metrics=views,profileViews`);
        assert.equal(account.status, 200);
        await control('POST', 'insights/retired', { metric: 'page_views_total', host: 'graph.facebook.com' });
        const partial = await api(`/analytics/accounts/${fb.id}?metrics=views,profileViews`);
        assert.deepEqual([partial.body.metrics?.map((m) => m.metric), partial.body.errors?.map((e) => [e.metric, e.code])], [['views'], [['profileViews', 'invalid_request']]]);
      } finally {
        await control('DELETE', 'insights/retired');
      }
    });

    test('facebook: Page insights and follows by country; followers online are not_supported without a platform call', async () => {
      const fb = await addInsightsAccount(t, org, 'facebook');
      const seq = mark();
      const page = await api(`/analytics/accounts/${fb.id}?metrics=views,followers,saves&period=week`);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      assert.deepEqual([page.body.metrics?.map((m) => [m.metric, m.period]), page.body.unsupported], [[['views', 'week'], ['followers', 'week']], ['saves']]);
      assert.equal(page.body.metrics?.[1]?.total, page.body.metrics?.[1]?.values.at(-1)?.value, 'followers: the last count, not a sum');
      assert.deepEqual(callsSince(seq).map(([, p, q]) => [p, q.metric, q.period]), [[`/${fb.platformUserId}/insights`, 'page_media_view,page_follows', 'week']]);
      const demo = await api(`/analytics/accounts/${fb.id}/demographics?breakdown=country`);
      assert.equal(demo.status, 200, JSON.stringify(demo.body));
      assert.deepEqual(demo.body.values?.map((v) => v.key).sort(), ['BR', 'DE', 'FR', 'GB', 'US']);
      assert.deepEqual(code(await api(`/analytics/accounts/${fb.id}/demographics?breakdown=age`)), [400, 'not_supported']);
      const quiet = mark();
      assert.deepEqual(code(await api(`/analytics/accounts/${fb.id}/online-followers`)), [400, 'not_supported']);
      assert.deepEqual(callsSince(quiet), []);
    });

    test('threads: post insights (replies are comments), account insights, demographics', async () => {
      const th = await addInsightsAccount(t, org, 'threads');
      const post = await published([{ accountId: th.id }]);
      const mediaId = post.targets[0]?.platformPostId ?? '';
      await control('POST', 'threads/replies', { replyToId: mediaId, text: 'nice', username: 'dana.w' });
      const seq = mark();
      const answer = await api(`/analytics/posts/${post.id}`);
      const [target] = answer.body.targets ?? [];
      assert.deepEqual(Object.keys(target?.metrics ?? {}).sort(), ['comments', 'likes', 'quotes', 'reposts', 'shares', 'views']);
      assert.equal(target?.metrics.comments, 1);
      assert.deepEqual(callsSince(seq).map(([, p, q]) => [p, q.metric]), [[`/${mediaId}/insights`, 'views,likes,replies,reposts,quotes,shares']]);
      const account = await api(`/analytics/accounts/${th.id}?metrics=views,clicks,followers`);
      assert.equal(account.status, 200, JSON.stringify(account.body));
      assert.deepEqual(account.body.metrics?.map((m) => [m.metric, m.total !== null]), [['views', true], ['clicks', true], ['followers', true]]);
      assert.equal(account.body.metrics?.[2]?.total, 150);
      assert.equal(account.body.metrics?.[1]?.breakdown.length, 2, 'clicks per link');
      const demo = await api(`/analytics/accounts/${th.id}/demographics?breakdown=gender`);
      assert.deepEqual(demo.body.values?.map((v) => v.key).sort(), ['F', 'M', 'U']);
      assert.deepEqual(code(await api(`/analytics/accounts/${th.id}/demographics?breakdown=gender&timeframe=this_week`)), [400, 'not_supported']);
      const few = await addInsightsAccount(t, org, 'threads', { followers: 40 });
      const seq2 = mark();
      const refused = await api(`/analytics/accounts/${few.id}/demographics?breakdown=age`);
      assert.deepEqual(code(refused), [400, 'not_supported']);
      assert.deepEqual(callsSince(seq2).map(([, p, q]) => [p, q.metric]), [[`/${few.platformUserId}/threads_insights`, 'followers_count']], 'only the followers count was read');
      const quiet = mark();
      assert.deepEqual(code(await api(`/analytics/accounts/${th.id}/online-followers`)), [400, 'not_supported']);
      assert.deepEqual(callsSince(quiet), []);
    });

    test('tiktok: a public video has counts, a SELF_ONLY one says why not beside it; the creator totals', async () => {
      const pub = await addInsightsAccount(t, org, 'tiktok', { publicTikTok: true });
      const priv = await addInsightsAccount(t, org, 'tiktok');
      const post = await published([
        { accountId: pub.id, platformSpecificData: { privacyLevel: 'PUBLIC_TO_EVERYONE', mediaUrl: `${files.url}/c.mp4` } },
        { accountId: priv.id, platformSpecificData: { privacyLevel: 'SELF_ONLY', mediaUrl: `${files.url}/c.mp4` } },
      ]);
      const videoId = post.targets[0]?.platformPostId ?? '';
      const seq = mark();
      const answer = await api(`/analytics/posts/${post.id}?metrics=views,likes,saves`);
      const [open, closed] = answer.body.targets ?? [];
      assert.deepEqual([Object.keys(open?.metrics ?? {}), open?.unsupported, open?.errors], [['views', 'likes'], ['saves'], []]);
      assert.deepEqual([closed?.metrics, closed?.takenAt, closed?.errors.map((e) => [e.metric, e.code])], [{}, null, [[null, 'not_supported']]]);
      const sent = t.sandbox.journal.list({ after: seq, path: '/v2/video/query' });
      assert.deepEqual(sent.map((e) => [e.query.fields, e.body]), [['id,view_count,like_count,comment_count,share_count', { filters: { video_ids: [videoId] } }]]);
      const account = await api(`/analytics/accounts/${pub.id}?metrics=followers,videos,reach`);
      assert.deepEqual([account.body.metrics?.map((m) => [m.metric, m.total]), account.body.unsupported], [[['followers', 300], ['videos', 0]], ['reach']]);
      assert.deepEqual(code(await api(`/analytics/accounts/${pub.id}/demographics?breakdown=age`)), [400, 'not_supported']);
      assert.deepEqual(code(await api(`/analytics/accounts/${pub.id}/online-followers`)), [400, 'not_supported']);
    });

    test('reddit: score, upvotes, ratio and comments of a link; no account insights', async () => {
      const rd = await addInsightsAccount(t, org, 'reddit');
      const post = await published([{ accountId: rd.id, platformSpecificData: { subreddit: 'sandbox' } }]);
      const thing = post.targets[0]?.platformPostId ?? '';
      await control('POST', 'insights/reddit-votes', { thingId: thing, ups: 30, downs: 10 });
      const seq = mark();
      const answer = await api(`/analytics/posts/${post.id}?metrics=score,likes,upvoteRatio,comments,views`);
      const [target] = answer.body.targets ?? [];
      assert.deepEqual([target?.metrics, target?.unsupported], [{ score: 20, likes: 30, upvoteRatio: 0.75, comments: 0 }, ['views']]);
      assert.deepEqual(callsSince(seq).map(([m, p, q]) => [m, p, q.id]), [['GET', '/api/info', thing]]);
      const quiet = mark();
      assert.deepEqual(code(await api(`/analytics/accounts/${rd.id}`)), [400, 'not_supported']);
      assert.deepEqual(code(await api(`/analytics/accounts/${rd.id}/demographics?breakdown=age`)), [400, 'not_supported']);
      assert.deepEqual(code(await api(`/analytics/accounts/${rd.id}/online-followers`)), [400, 'not_supported']);
      assert.deepEqual(callsSince(quiet), []);
    });

    test('rules: missing permission 403, reconnect 409, another organization 404, 400s naming the field', async () => {
      const bare = await addInsightsAccount(t, org, 'instagram', { noInsights: true });
      const denied = await api(`/analytics/accounts/${bare.id}?metrics=reach`);
      assert.deepEqual(code(denied), [403, 'missing_permission']);
      const post = await published([{ accountId: bare.id, platformSpecificData: photo() }]);
      const perTarget = await api(`/analytics/posts/${post.id}`);
      assert.equal(perTarget.status, 200, 'a post answer never fails for one target');
      assert.deepEqual(perTarget.body.targets?.[0]?.errors.map((e) => [e.metric, e.code]), [[null, 'missing_permission']]);

      const stale = await addInsightsAccount(t, org, 'instagram', { status: 'needs_reconnect' });
      const quiet = mark();
      assert.deepEqual(code(await api(`/analytics/accounts/${stale.id}`)), [409, 'reconnect_required']);
      assert.deepEqual(code(await api(`/analytics/accounts/${stale.id}/online-followers`)), [409, 'reconnect_required']);
      assert.deepEqual(callsSince(quiet), []);

      const other = await t.tenant();
      const theirs = await addInsightsAccount(t, other.organizationId, 'instagram');
      const before = mark();
      for (const path of [`/analytics/accounts/${theirs.id}`, `/analytics/accounts/${theirs.id}/demographics?breakdown=age`, `/analytics/accounts/${theirs.id}/online-followers`, `/analytics/best-time?accountId=${theirs.id}`]) {
        assert.equal((await api(path)).status, 404, path);
      }
      assert.equal((await api(`/analytics/posts/${post.id}`, other.key)).status, 404);
      assert.deepEqual(callsSince(before), []);
      assert.deepEqual(code(await api('/analytics/best-time')), [400, 'query.accountId: required']);
      assert.deepEqual(code(await api(`/analytics/best-time?accountId=${bare.id}&days=0`)), [400, 'query.days: must be >= 1']);
      assert.deepEqual(code(await api(`/analytics/accounts/${bare.id}?since=yesterday`)), [400, 'since: a date-time (ISO 8601) or a date']);
      assert.deepEqual(code(await api(`/analytics/accounts/${bare.id}?period=month`)), [400, 'query.period: must be one of day, week, days_28, lifetime']);
      assert.deepEqual(code(await api(`/analytics/posts/${post.id}?accountId=${theirs.id}`)), [400, 'accountId: not the account of a published target of this post']);
    });
  });
}
