// Threads insights (platforms.md §4.6), with threads_manage_insights: a post's lifetime metrics
// (`/{media}/insights`: views, likes, replies, reposts, quotes, shares; replies counts the direct
// replies, nested ones are not counted) and the user's (`/{user}/threads_insights`: views a day
// series over since/until, likes, replies, reposts, quotes as total_value, clicks per link,
// followers_count and follower_demographics without a range, the latter with one breakdown and
// 100 followers). Numbers are stable for an object and a metric.
import type { ThreadsUser } from './people.ts';
import type { RouteContext } from '../core/router.ts';
import { requireScopes } from '../meta/auth.ts';
import { graphError, invalidParameter, unsupportedRequest } from '../meta/graph-error.ts';
import { dayEnds, endTime, requestedMetrics, row, stableNumber, type MetricRow } from '../meta/insights.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { isRetired } from '../insights/store.ts';
import { threadsToken } from './login.ts';
import type { ThreadsPost } from './store.ts';

const MEDIA = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'];
const USER = ['views', 'likes', 'replies', 'reposts', 'quotes', 'clicks', 'followers_count', 'follower_demographics'];
const NO_RANGE = new Set(['followers_count', 'follower_demographics']);
const DIMENSIONS: Record<string, string[]> = {
  country: ['US', 'BR', 'IN', 'GB', 'MX'],
  city: ['São Paulo, Brazil', 'London, England', 'Mumbai, India', 'New York, New York'],
  age: ['18-24', '25-34', '35-44', '45-54', '55-64', '65+'],
  gender: ['F', 'M', 'U'],
};

function insightsToken(ctx: RouteContext, input: GraphInput, ownerId: string, path: string) {
  const token = threadsToken(ctx, input);
  if (token.subjectId !== ownerId) throw unsupportedRequest(ctx.method, path);
  requireScopes(token, ['threads_basic', 'threads_manage_insights'], 10);
  return token;
}

export function threadsMediaInsights(ctx: RouteContext, input: GraphInput, post: ThreadsPost): { data: MetricRow[] } {
  insightsToken(ctx, input, post.userId, `${post.id}/insights`);
  const metrics = requestedMetrics(input, MEDIA, (m) => isRetired(ctx.state.insights, ctx.host, m));
  const replies = [...ctx.state.threads.posts.values()].filter((p) => p.replyToId === post.id).length;
  return {
    data: metrics.map((name) => row(post.id, name, 'lifetime', { values: [{ value: name === 'replies' ? replies : stableNumber(`${post.id}:${name}`, 0, name === 'views' ? 900 : 60) }] })),
  };
}

export function threadsUserInsights(ctx: RouteContext, input: GraphInput, user: ThreadsUser): { data: Array<MetricRow | Record<string, unknown>> } {
  insightsToken(ctx, input, user.id, `${user.id}/threads_insights`);
  const metrics = requestedMetrics(input, USER, (m) => isRetired(ctx.state.insights, ctx.host, m));
  const ranged = str(input, 'since') !== undefined || str(input, 'until') !== undefined;
  const breakdown = str(input, 'breakdown');
  return {
    data: metrics.map((name) => {
      if (NO_RANGE.has(name) && ranged) throw invalidParameter(`(#100) The ${name} metric does not support since and until`);
      if (name === 'views') {
        return row(user.id, name, 'day', { values: dayEnds(input, ctx.state.clock.now()).map((end) => ({ value: stableNumber(`${user.id}:views:${new Date(end).toISOString().slice(0, 10)}`, 0, 500), end_time: endTime(end) })) });
      }
      if (name === 'clicks') {
        const links = ['https://example.com/menu', 'https://example.com/shop'].map((link_url) => ({ value: stableNumber(`${user.id}:clicks:${link_url}`, 0, 40), link_url }));
        return { ...row(user.id, name, 'day', {}), link_total_values: links };
      }
      if (name === 'followers_count') return row(user.id, name, 'day', { total_value: { value: user.followersCount } });
      if (name === 'follower_demographics') {
        if (user.followersCount < 100) throw graphError({ code: 10, message: '(#10) Follower demographics are not available for users with fewer than 100 followers.' });
        const dims = breakdown ? DIMENSIONS[breakdown] : undefined;
        if (!breakdown || !dims) throw invalidParameter('(#100) follower_demographics requires exactly one breakdown: country, city, age or gender');
        const results = dims.map((d) => ({ dimension_values: [d], value: stableNumber(`${user.id}:demo:${d}`, 1, Math.max(2, Math.floor(user.followersCount / 3))) }));
        return row(user.id, name, 'lifetime', { total_value: { value: results.reduce((s, r) => s + r.value, 0), breakdowns: [{ dimension_keys: [breakdown], results }] } });
      }
      return row(user.id, name, 'day', { total_value: { value: stableNumber(`${user.id}:${name}`, 0, 300) } });
    }),
  };
}
