// Facebook Page and Page post insights (platforms.md §10.3): our metric names mapped onto the
// metrics Meta still serves after the 2025 deprecations (the `*impressions*` family became
// "media views", `page_fans*` became `page_follows*`). When Meta renames one again, this table
// is the one place to change. A post's comments and shares are fields of the post node, not
// insights metrics. Demographics are the follows by country or city; Pages have no online
// followers.
import type { PlatformHttp } from '../http.ts';
import { list, numberOf, obj } from '../json.ts';
import { accountMetric, lifetimeValue, readMetrics, rowsByName, unixSeconds, type MetricTable } from '../meta/insights.ts';
import { graphCaller } from '../meta/publish-steps.ts';
import { FACEBOOK_GRAPH } from '../meta/graph.ts';
import type { AccountInsightsReader, DemographicsReader, MetricName, PostInsightsReader } from '../insights-types.ts';
import type { AccountCredentials } from '../types.ts';

const POST: MetricTable = {
  views: 'post_media_view',
  reach: 'post_total_media_view_unique',
  likes: 'post_reactions_by_type_total',
  clicks: 'post_clicks',
  videoViews: 'post_video_views',
};
/** Read from the post node (`comments.summary`, `shares.count`). */
const POST_FIELDS: readonly MetricName[] = ['comments', 'shares'];

const PAGE: MetricTable = {
  views: 'page_media_view',
  reach: 'page_total_media_view_unique',
  interactions: 'page_post_engagements',
  likes: 'page_actions_post_reactions_total',
  profileViews: 'page_views_total',
  videoViews: 'page_video_views',
  newFollowers: 'page_daily_follows_unique',
  unfollows: 'page_daily_unfollows_unique',
  followers: 'page_follows',
};
/** Counts of a state, not of a day: their total is the last value, not the sum. */
const STOCK: ReadonlySet<MetricName> = new Set(['followers']);

const DEMOGRAPHICS: Record<string, string> = { country: 'page_follows_country', city: 'page_follows_city' };

const call = (http: PlatformHttp, account: AccountCredentials) => graphCaller(http, 'facebook', FACEBOOK_GRAPH, account.accessToken);

export function facebookInsights(http: PlatformHttp): { post: PostInsightsReader; account: AccountInsightsReader; demographics: DemographicsReader } {
  return {
    post: {
      metrics: [...(Object.keys(POST) as MetricName[]), ...POST_FIELDS],
      async post(account, postId, metrics) {
        const graph = call(http, account);
        const insights = metrics.filter((m) => !POST_FIELDS.includes(m));
        const readout = await readMetrics(insights, POST, async (names) => rowsByName(await graph('GET', `/${postId}/insights`, { metric: names.join(',') })), lifetimeValue);
        const fromNode = metrics.filter((m) => POST_FIELDS.includes(m));
        if (fromNode.length) {
          const node = await graph('GET', `/${postId}`, { fields: 'shares,comments.limit(0).summary(true)' });
          const counts: Partial<Record<MetricName, number | null>> = {
            comments: numberOf(obj(obj(node.comments).summary).total_count),
            shares: numberOf(obj(node.shares).count) ?? 0,
          };
          for (const metric of fromNode) {
            const value = counts[metric];
            if (value !== null && value !== undefined) readout.values[metric] = value;
          }
        }
        return readout;
      },
    },
    account: {
      metrics: Object.keys(PAGE) as MetricName[],
      async account(account, query) {
        const graph = call(http, account);
        // Pages have no lifetime period for these metrics: the day series serves it.
        const period = query.period === 'lifetime' ? 'day' : query.period;
        return readMetrics(query.metrics, PAGE, async (names) => rowsByName(await graph('GET', `/${account.platformUserId}/insights`, {
          metric: names.join(','),
          period,
          since: unixSeconds(query.since),
          until: unixSeconds(query.until),
        })), (row, metric) => accountMetric(row, STOCK.has(metric)));
      },
    },
    demographics: {
      breakdowns: ['country', 'city'],
      audiences: ['followers'],
      timeframes: [],
      minFollowers: 0,
      async followers(account) {
        const node = await call(http, account)('GET', `/${account.platformUserId}`, { fields: 'followers_count' });
        return numberOf(node.followers_count) ?? 0;
      },
      async demographics(account, query) {
        const name = DEMOGRAPHICS[query.breakdown] ?? 'page_follows_country';
        const body = await call(http, account)('GET', `/${account.platformUserId}/insights`, { metric: name, period: 'day' });
        const row = rowsByName(body).get(name) ?? {};
        // The newest day's map of place → follows.
        const latest = obj(obj(list(row.values).at(-1)).value);
        const values = Object.entries(latest).flatMap(([key, v]) => (typeof v === 'number' ? [{ key, value: v }] : [])).sort((a, b) => b.value - a.value);
        return { total: values.reduce((s, v) => s + v.value, 0), values };
      },
    },
  };
}
