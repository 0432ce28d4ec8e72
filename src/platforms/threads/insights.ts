// Threads insights (platforms.md §4.6): media metrics (`/{media}/insights`, lifetime) and user
// metrics (`/{user}/threads_insights`; views a day series, the rest totals, clicks per link,
// followers_count without a range), mapped from our names in one table each. A reply to a thread
// is what other platforms call a comment, so our `comments` is Threads' `replies`. Demographics
// take exactly one breakdown and need 100 followers; Threads has no online followers.
import type { PlatformHttp } from '../http.ts';
import { list, numberOf, obj, str, type Json } from '../json.ts';
import { graphBody } from '../meta/errors.ts';
import { accountMetric, lifetimeValue, readMetrics, rowsByName, unixSeconds, type MetricTable } from '../meta/insights.ts';
import type { AccountInsightsReader, AccountMetric, DemographicsReader, MetricName, PostInsightsReader } from '../insights-types.ts';
import type { AccountCredentials } from '../types.ts';

const GRAPH = 'https://graph.threads.net/v1.0';

const MEDIA: MetricTable = { views: 'views', likes: 'likes', comments: 'replies', reposts: 'reposts', quotes: 'quotes', shares: 'shares' };
const USER: MetricTable = { views: 'views', likes: 'likes', comments: 'replies', reposts: 'reposts', quotes: 'quotes', clicks: 'clicks', followers: 'followers_count' };
/** Asked without since/until: Threads refuses a range for them. */
const NO_RANGE: ReadonlySet<string> = new Set(['followers_count']);

type Params = Record<string, string | number | undefined>;
const get = (http: PlatformHttp, account: AccountCredentials) => async (path: string, params: Params): Promise<Json> =>
  graphBody('threads', await http.send('threads', { url: `${GRAPH}${path}`, bearer: account.accessToken, query: params }));

/** A user row: clicks come per link (`link_total_values`), summed. */
function userMetric(row: Json): AccountMetric {
  const links = list(row.link_total_values);
  if (!links.length) return accountMetric(row);
  return { period: 'day', total: links.reduce<number>((s, l) => s + (numberOf(obj(l).value) ?? 0), 0), values: [], breakdown: links.map((l) => ({ key: str(obj(l).link_url) ?? '', value: numberOf(obj(l).value) ?? 0 })) };
}

export function threadsInsights(http: PlatformHttp): { post: PostInsightsReader; account: AccountInsightsReader; demographics: DemographicsReader } {
  return {
    post: {
      metrics: Object.keys(MEDIA) as MetricName[],
      post: (account, mediaId, metrics) =>
        readMetrics(metrics, MEDIA, async (names) => rowsByName(await get(http, account)(`/${mediaId}/insights`, { metric: names.join(',') })), lifetimeValue),
    },
    account: {
      metrics: Object.keys(USER) as MetricName[],
      async account(account, query) {
        const read = async (names: string[]) => {
          const ranged = names.filter((n) => !NO_RANGE.has(n));
          const rows = new Map<string, Json>();
          if (ranged.length) {
            const body = await get(http, account)(`/${account.platformUserId}/threads_insights`, { metric: ranged.join(','), since: unixSeconds(query.since), until: unixSeconds(query.until) });
            for (const [k, v] of rowsByName(body)) rows.set(k, v);
          }
          const bare = names.filter((n) => NO_RANGE.has(n));
          if (bare.length) for (const [k, v] of rowsByName(await get(http, account)(`/${account.platformUserId}/threads_insights`, { metric: bare.join(',') }))) rows.set(k, v);
          return rows;
        };
        return readMetrics(query.metrics, USER, read, userMetric);
      },
    },
    demographics: {
      breakdowns: ['age', 'city', 'country', 'gender'],
      audiences: ['followers'],
      timeframes: [],
      minFollowers: 100,
      async followers(account) {
        const rows = rowsByName(await get(http, account)(`/${account.platformUserId}/threads_insights`, { metric: 'followers_count' }));
        return lifetimeValue(rows.get('followers_count') ?? {}) ?? 0;
      },
      async demographics(account, query) {
        const rows = rowsByName(await get(http, account)(`/${account.platformUserId}/threads_insights`, { metric: 'follower_demographics', breakdown: query.breakdown }));
        const metric = accountMetric(rows.get('follower_demographics') ?? {});
        return { total: metric.total ?? 0, values: metric.breakdown };
      },
    },
  };
}
