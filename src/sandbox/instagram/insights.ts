// Instagram insights (platforms.md §10.1–10.2): media metrics by product type (lifetime, with
// the action_type and story_navigation_action_type breakdowns), and account metrics with their
// periods, metric types and breakdowns. Demographics, follower_count and online_followers need
// 100 followers (the error code used for fewer is unconfirmed: code 10 here). Values derive from
// the followers count and the object id, so they are stable across reads.
import type { InstagramAccount } from '../meta/people.ts';
import type { RouteContext } from '../core/router.ts';
import { graphError, invalidParameter } from '../meta/graph-error.ts';
import { dayEnds, endTime, requestedMetrics, row, stableNumber, type MetricRow } from '../meta/insights.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { isRetired } from '../insights/store.ts';
import type { IgMedia } from './store.ts';

const FEED = ['reach', 'likes', 'comments', 'saved', 'shares', 'total_interactions', 'views', 'follows', 'profile_visits', 'profile_activity'];
const REELS = ['views', 'reach', 'likes', 'comments', 'saved', 'shares', 'total_interactions', 'ig_reels_avg_watch_time', 'ig_reels_video_view_total_time', 'clips_replays_count', 'ig_reels_aggregated_all_plays_count', 'reels_skip_rate', 'facebook_views', 'crossposted_views'];
const STORY = ['reach', 'views', 'replies', 'shares', 'follows', 'profile_visits', 'total_interactions', 'navigation'];
const BREAKDOWNS: Record<string, { metric: string; values: string[] }> = {
  action_type: { metric: 'profile_activity', values: ['BIO_LINK_CLICKED', 'CALL', 'DIRECTION', 'EMAIL', 'OTHER', 'TEXT'] },
  story_navigation_action_type: { metric: 'navigation', values: ['TAP_FORWARD', 'TAP_BACK', 'TAP_EXIT', 'SWIPE_FORWARD'] },
};

const unknownError = () => graphError({ code: 1, message: 'An unknown error has occurred.', status: 500 });

export function mediaInsights(ctx: RouteContext, input: GraphInput, media: IgMedia): { data: MetricRow[] } {
  if (media.isCarouselChild) throw invalidParameter('(#100) Insights are not available for carousel children.');
  const allowed = media.productType === 'STORY' ? STORY : media.productType === 'REELS' ? REELS : FEED;
  const metrics = requestedMetrics(input, allowed, (m) => isRetired(ctx.state.insights, ctx.host, m));
  const account = ctx.state.people.instagramAccounts.get(media.accountId);
  const audience = Math.max(10, account?.followersCount ?? 100);
  if (media.productType === 'STORY' && ctx.state.clock.now() - media.publishedAt > 86_400_000) return { data: [] };
  const breakdown = str(input, 'breakdown');
  const comments = [...ctx.state.meta.igComments.values()].filter((c) => c.mediaId === media.id).length;
  return {
    data: metrics.map((name) => {
      const value = name === 'comments' ? comments : name === 'likes' ? media.likeCount + stableNumber(`${media.id}:likes`, 0, audience / 10) : stableNumber(`${media.id}:${name}`, 1, audience);
      if (media.productType === 'STORY' && value < 5) throw graphError({ code: 10, message: '(#10) Not enough viewers for the media to show insights' });
      if (!breakdown) return row(media.id, name, 'lifetime', { values: [{ value }] });
      const def = BREAKDOWNS[breakdown];
      if (def?.metric !== name) throw unknownError();
      const results = def.values.map((v) => ({ dimension_values: [v.toLowerCase()], value: stableNumber(`${media.id}:${name}:${v}`, 0, 20) }));
      const total = results.reduce((sum, r) => sum + r.value, 0);
      return row(media.id, name, 'lifetime', { total_value: { value: total, breakdowns: [{ dimension_keys: [breakdown], results }] } });
    }),
  };
}

interface AccountMetric {
  types: Array<'time_series' | 'total_value'>;
  periods: string[];
  breakdowns: string[];
  needs100?: boolean;
}
const SERIES_OR_TOTAL: AccountMetric = { types: ['time_series', 'total_value'], periods: ['day'], breakdowns: ['media_product_type', 'follow_type'] };
const TOTAL = (breakdowns: string[] = []): AccountMetric => ({ types: ['total_value'], periods: ['day', 'week', 'days_28'], breakdowns });
const DEMOGRAPHICS: AccountMetric = { types: ['total_value'], periods: ['lifetime'], breakdowns: ['age', 'city', 'country', 'gender'], needs100: true };
const ACCOUNT: Record<string, AccountMetric> = {
  reach: SERIES_OR_TOTAL,
  views: TOTAL(['follower_type', 'media_product_type']),
  accounts_engaged: TOTAL(),
  total_interactions: TOTAL(['media_product_type']),
  likes: TOTAL(['media_product_type']),
  comments: TOTAL(['media_product_type']),
  shares: TOTAL(['media_product_type']),
  saves: TOTAL(['media_product_type']),
  replies: TOTAL(['media_product_type']),
  follows_and_unfollows: TOTAL(['follow_type']),
  profile_links_taps: TOTAL(['contact_button_type']),
  profile_views: TOTAL(),
  website_clicks: TOTAL(),
  follower_count: { types: ['time_series'], periods: ['day'], breakdowns: [], needs100: true },
  online_followers: { types: ['time_series'], periods: ['lifetime'], breakdowns: [], needs100: true },
  follower_demographics: DEMOGRAPHICS,
  engaged_audience_demographics: DEMOGRAPHICS,
  reached_audience_demographics: DEMOGRAPHICS,
};
const DIMENSIONS: Record<string, string[]> = {
  age: ['13-17', '18-24', '25-34', '35-44', '45-54', '55-64', '65+'],
  gender: ['F', 'M', 'U'],
  country: ['US', 'GB', 'FR', 'DE', 'BR', 'IN'],
  city: ['London, England', 'Paris, Île-de-France', 'New York, New York', 'São Paulo, São Paulo'],
  media_product_type: ['POST', 'REEL', 'STORY', 'CAROUSEL_CONTAINER'],
  follow_type: ['FOLLOWER', 'NON_FOLLOWER'],
  follower_type: ['FOLLOWER', 'NON_FOLLOWER'],
  contact_button_type: ['BOOK_NOW', 'CALL', 'DIRECTION', 'EMAIL', 'TEXT', 'OTHER'],
};

export function accountInsights(ctx: RouteContext, input: GraphInput, account: InstagramAccount): { data: MetricRow[] } {
  const metrics = requestedMetrics(input, Object.keys(ACCOUNT), (m) => isRetired(ctx.state.insights, ctx.host, m));
  const period = str(input, 'period');
  if (!period) throw invalidParameter('(#100) The parameter period is required');
  const metricType = (str(input, 'metric_type') ?? 'time_series') as 'time_series' | 'total_value';
  const breakdown = str(input, 'breakdown');
  const now = ctx.state.clock.now();
  const audience = account.followersCount;
  const totalOnly = metrics.filter((m) => !ACCOUNT[m]?.types.includes(metricType));
  if (totalOnly.length) throw invalidParameter(`(#100) The following metrics (${totalOnly.join(', ')}) should be specified with parameter metric_type=${metricType === 'time_series' ? 'total_value' : 'time_series'}`);
  return {
    data: metrics.map((name) => {
      const def = ACCOUNT[name] ?? SERIES_OR_TOTAL;
      if (!def.periods.includes(period)) throw invalidParameter(`(#100) Incompatible period (${period}) for metric ${name}; use one of ${def.periods.join(', ')}`);
      if (def.needs100 && audience < 100) throw graphError({ code: 10, message: `(#10) The ${name} metric is not available for accounts with fewer than 100 followers.` });
      if (def === DEMOGRAPHICS) return demographics(input, account.id, name, breakdown);
      if (breakdown && !def.breakdowns.includes(breakdown)) throw invalidParameter(`(#100) Incompatible breakdown (${breakdown}) for metric ${name}`);
      const scale = Math.max(10, audience);
      if (metricType === 'total_value') {
        const value = stableNumber(`${account.id}:${name}:${period}`, 0, scale);
        const results = breakdown ? (DIMENSIONS[breakdown] ?? []).map((d) => ({ dimension_values: [d], value: stableNumber(`${account.id}:${name}:${d}`, 0, scale / 4) })) : null;
        return row(account.id, name, period, { total_value: results ? { value, breakdowns: [{ dimension_keys: [breakdown ?? ''], results }] } : { value } });
      }
      const values = dayEnds(input, now).map((end) => {
        const day = new Date(end).toISOString().slice(0, 10);
        if (name !== 'online_followers') return { value: stableNumber(`${account.id}:${name}:${day}`, 0, name === 'follower_count' ? scale / 50 : scale), end_time: endTime(end) };
        const hours = Object.fromEntries(Array.from({ length: 24 }, (_, h) => [String(h), stableNumber(`${account.id}:online:${day}:${h}`, 0, scale / 3)]));
        return { value: hours, end_time: endTime(end) };
      });
      return row(account.id, name, period, { values });
    }),
  };
}

function demographics(input: GraphInput, accountId: string, name: string, breakdown: string | undefined): MetricRow {
  if (!breakdown || !['age', 'city', 'country', 'gender'].includes(breakdown)) {
    throw invalidParameter(`(#100) The ${name} metric requires a breakdown of age, city, country or gender.`);
  }
  if (str(input, 'metric_type') !== 'total_value') throw invalidParameter(`(#100) The following metrics (${name}) should be specified with parameter metric_type=total_value`);
  const timeframe = str(input, 'timeframe') ?? 'this_month';
  if (timeframe !== 'this_week' && timeframe !== 'this_month') throw invalidParameter(`(#100) timeframe must be one of this_week, this_month; ${timeframe} is no longer supported`);
  const results = (DIMENSIONS[breakdown] ?? []).slice(0, 45).map((d) => ({ dimension_values: [d], value: stableNumber(`${accountId}:${name}:${timeframe}:${d}`, 1, 400) }));
  return row(accountId, name, 'lifetime', { total_value: { value: results.reduce((s, r) => s + r.value, 0), breakdowns: [{ dimension_keys: [breakdown], results }] } });
}
