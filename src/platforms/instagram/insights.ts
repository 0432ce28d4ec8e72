// Instagram insights (platforms.md §10.1–10.2) on the account's host: our metric names mapped
// onto Instagram's, per kind of media (the media's `media_product_type` decides which apply) and
// for the account, with each metric's metric_type. These tables are the one place to change when
// Instagram renames a metric. Followers are the user node's `followers_count`; demographics and
// online followers need 100 followers.
import { PlatformError } from '../errors.ts';
import type { PlatformHttp } from '../http.ts';
import { graphTimeMs, numberOf, obj, text, type Json } from '../json.ts';
import { accountMetric, lifetimeValue, readMetrics, rowsByName, unixSeconds, type MetricTable } from '../meta/insights.ts';
import { graphCaller } from '../meta/publish-steps.ts';
import type { AccountInsightsReader, AccountMetric, Audience, DemographicsReader, MetricName, MetricReadout, MetricType, OnlineFollowersReader, PostInsightsReader } from '../insights-types.ts';
import type { AccountCredentials } from '../types.ts';
import { instagramHost } from './publish.ts';

const FEED: MetricTable = {
  views: 'views', reach: 'reach', likes: 'likes', comments: 'comments', shares: 'shares', saves: 'saved',
  interactions: 'total_interactions', profileVisits: 'profile_visits', follows: 'follows',
};
const REELS: MetricTable = {
  views: 'views', reach: 'reach', likes: 'likes', comments: 'comments', shares: 'shares', saves: 'saved', interactions: 'total_interactions',
};
const STORY: MetricTable = {
  views: 'views', reach: 'reach', shares: 'shares', replies: 'replies', interactions: 'total_interactions', profileVisits: 'profile_visits', follows: 'follows',
};
const MEDIA: Record<string, MetricTable> = { FEED, REELS, STORY, AD: FEED };

/** Account metrics: Instagram's name and the metric types it has (the first is used when the asked one is not among them). */
const ACCOUNT: Partial<Record<MetricName, { name: string; types: MetricType[] }>> = {
  views: { name: 'views', types: ['total_value'] },
  reach: { name: 'reach', types: ['total_value', 'time_series'] },
  accountsEngaged: { name: 'accounts_engaged', types: ['total_value'] },
  interactions: { name: 'total_interactions', types: ['total_value'] },
  likes: { name: 'likes', types: ['total_value'] },
  comments: { name: 'comments', types: ['total_value'] },
  shares: { name: 'shares', types: ['total_value'] },
  saves: { name: 'saves', types: ['total_value'] },
  replies: { name: 'replies', types: ['total_value'] },
  profileViews: { name: 'profile_views', types: ['total_value'] },
  websiteClicks: { name: 'website_clicks', types: ['total_value'] },
  newFollowers: { name: 'follower_count', types: ['time_series'] },
};

const AUDIENCE: Record<Audience, string> = {
  followers: 'follower_demographics',
  engaged: 'engaged_audience_demographics',
  reached: 'reached_audience_demographics',
};

/** Instagram reads account insights over at most 30 days between since and until (§10.2). */
const MAX_RANGE_MS = 30 * 86_400_000;

const call = (http: PlatformHttp, account: AccountCredentials) => graphCaller(http, 'instagram', instagramHost(account.metadata), account.accessToken);

async function followersCount(http: PlatformHttp, account: AccountCredentials): Promise<number> {
  const node = await call(http, account)('GET', `/${account.platformUserId}`, { fields: 'followers_count' });
  return numberOf(node.followers_count) ?? 0;
}

export function instagramInsights(http: PlatformHttp): { post: PostInsightsReader; account: AccountInsightsReader; demographics: DemographicsReader; online: OnlineFollowersReader } {
  return {
    post: {
      metrics: [...new Set([FEED, REELS, STORY].flatMap((t) => Object.keys(t) as MetricName[]))],
      async post(account, mediaId, metrics) {
        const graph = call(http, account);
        const media = await graph('GET', `/${mediaId}`, { fields: 'media_product_type' });
        const table = MEDIA[text(media.media_product_type)] ?? FEED;
        return readMetrics(metrics, table, async (names) => rowsByName(await graph('GET', `/${mediaId}/insights`, { metric: names.join(',') })), lifetimeValue);
      },
    },
    account: {
      metrics: [...(Object.keys(ACCOUNT) as MetricName[]), 'followers'],
      async account(account, query) {
        // Refused before asking: Instagram would refuse every metric of the request alike.
        if (query.since !== null && query.until !== null && query.until - query.since > MAX_RANGE_MS) {
          throw new PlatformError('invalid', 'since and until may be at most 30 days apart on Instagram', { platform: 'instagram' });
        }
        const graph = call(http, account);
        const wantsFollowers = query.metrics.includes('followers');
        const others = query.metrics.filter((m) => m !== 'followers');
        // One call per metric type: a metric asked as a type it does not have is read as the one it has.
        const typeOf = (m: MetricName): MetricType => {
          const types = ACCOUNT[m]?.types ?? [query.metricType];
          return types.includes(query.metricType) ? query.metricType : (types[0] ?? query.metricType);
        };
        const readout: MetricReadout<AccountMetric> = { values: {}, unsupported: others.filter((m) => !ACCOUNT[m]), failures: [] };
        for (const type of ['total_value', 'time_series'] as const) {
          const group = others.filter((m) => ACCOUNT[m] && typeOf(m) === type);
          if (!group.length) continue;
          const table: MetricTable = Object.fromEntries(group.map((m) => [m, ACCOUNT[m]?.name ?? '']));
          const part = await readMetrics(group, table, async (names) => {
            const params: Record<string, string | number | undefined> = { metric: names.join(','), period: query.period, metric_type: type, since: unixSeconds(query.since), until: unixSeconds(query.until) };
            if (query.breakdown && type === 'total_value') params.breakdown = query.breakdown;
            if (query.timeframe) params.timeframe = query.timeframe;
            return rowsByName(await graph('GET', `/${account.platformUserId}/insights`, params));
          }, (row: Json) => accountMetric(row));
          Object.assign(readout.values, part.values);
          readout.failures.push(...part.failures);
        }
        if (wantsFollowers) readout.values.followers = { period: 'lifetime', total: await followersCount(http, account), values: [], breakdown: [] };
        return readout;
      },
    },
    demographics: {
      breakdowns: ['age', 'city', 'country', 'gender'],
      audiences: ['followers', 'engaged', 'reached'],
      timeframes: ['this_month', 'this_week'],
      minFollowers: 100,
      followers: (account) => followersCount(http, account),
      async demographics(account, query) {
        const body = await call(http, account)('GET', `/${account.platformUserId}/insights`, {
          metric: AUDIENCE[query.audience],
          period: 'lifetime',
          metric_type: 'total_value',
          breakdown: query.breakdown,
          timeframe: query.timeframe ?? 'this_month',
        });
        const row = rowsByName(body).get(AUDIENCE[query.audience]) ?? {};
        const metric = accountMetric(row);
        return { total: metric.total ?? metric.breakdown.reduce((s, v) => s + v.value, 0), values: metric.breakdown };
      },
    },
    online: {
      async onlineFollowers(account) {
        const body = await call(http, account)('GET', `/${account.platformUserId}/insights`, { metric: 'online_followers', period: 'lifetime', metric_type: 'time_series' });
        const row = rowsByName(body).get('online_followers') ?? {};
        const values = Array.isArray(row.values) ? row.values : [];
        return values.flatMap((item) => {
          const v = obj(item);
          const end = graphTimeMs(v.end_time);
          if (end === null) return [];
          const hours = obj(v.value);
          return [{ endTime: end, hours: Array.from({ length: 24 }, (_, h) => numberOf(hours[String(h)]) ?? 0) }];
        });
      },
    },
  };
}
