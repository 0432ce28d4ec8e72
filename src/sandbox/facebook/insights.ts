// Page and post insights (platforms.md §10.3): the metrics still served after the 2025
// deprecations, per `period` (day, week, days_28 for the Page; lifetime for posts), over
// `since`/`until` for the Page. Deprecated metrics (`*impressions*`, `page_fans*`) answer the
// invalid-metric error, code 100. Numbers are stable for an object, metric and day.
import type { FacebookPage } from '../meta/people.ts';
import type { RouteContext } from '../core/router.ts';
import { invalidParameter } from '../meta/graph-error.ts';
import { dayEnds, endTime, requestedMetrics, row, stableNumber, type MetricRow } from '../meta/insights.ts';
import { str, type GraphInput } from '../meta/params.ts';
import { isRetired } from '../insights/store.ts';
import type { FbPost } from './store.ts';

const PAGE_METRICS = [
  'page_post_engagements', 'page_daily_follows_unique', 'page_daily_unfollows_unique', 'page_views_total', 'page_video_views',
  'page_actions_post_reactions_total', 'page_follows', 'page_media_view', 'page_total_media_view_unique', 'page_follows_country', 'page_follows_city',
];
/** Follows by place (the successors of page_fans_country/city): a map per day. */
const PLACES: Record<string, string[]> = {
  page_follows_country: ['US', 'GB', 'FR', 'DE', 'BR'],
  page_follows_city: ['London, England', 'Paris, Île-de-France', 'New York, NY', 'Berlin, Germany'],
};
const POST_METRICS = ['post_reactions_by_type_total', 'post_clicks', 'post_video_views', 'post_media_view', 'post_total_media_view_unique', 'post_engaged_users'];
const PERIODS = ['day', 'week', 'days_28'];

function checkDeprecated(input: GraphInput): void {
  const metric = str(input, 'metric') ?? '';
  if (/impressions|page_fans/.test(metric)) throw invalidParameter('(#100) The value must be a valid insights metric');
}

export function pageInsights(ctx: RouteContext, input: GraphInput, page: FacebookPage): { data: MetricRow[]; paging: Record<string, string> } {
  checkDeprecated(input);
  const metrics = requestedMetrics(input, PAGE_METRICS, (m) => isRetired(ctx.state.insights, ctx.host, m));
  const period = str(input, 'period') ?? 'day';
  if (!PERIODS.includes(period)) throw invalidParameter(`(#100) period must be one of ${PERIODS.join(', ')}`);
  const ends = dayEnds(input, ctx.state.clock.now(), 93);
  const data = metrics.map((name) =>
    row(page.id, name, period, {
      values: ends.map((end) => {
        const day = new Date(end).toISOString().slice(0, 10);
        const places = PLACES[name];
        if (places) return { value: Object.fromEntries(places.map((p) => [p, stableNumber(`${page.id}:${name}:${p}`, 1, 300)])), end_time: endTime(end) };
        const value = name === 'page_actions_post_reactions_total' ? { like: stableNumber(`${page.id}:${name}:${day}:like`, 0, 40), love: stableNumber(`${page.id}:${name}:${day}:love`, 0, 15) } : stableNumber(`${page.id}:${name}:${period}:${day}`, 0, 500);
        return { value, end_time: endTime(end) };
      }),
    }),
  );
  const first = ends[0] ?? 0;
  const last = ends.at(-1) ?? 0;
  const span = last - first + 86_400_000;
  const link = (since: number, until: number) => `${ctx.baseUrl}/${ctx.host}/${ctx.version ?? 'v24.0'}${ctx.path}?metric=${metrics.join(',')}&period=${period}&since=${Math.floor(since / 1000)}&until=${Math.floor(until / 1000)}`;
  return { data, paging: { previous: link(first - span - 86_400_000, first - 86_400_000), next: link(last, last + span) } };
}

export function postInsights(ctx: RouteContext, input: GraphInput, post: FbPost): { data: MetricRow[] } {
  checkDeprecated(input);
  const metrics = requestedMetrics(input, POST_METRICS, (m) => isRetired(ctx.state.insights, ctx.host, m));
  return {
    data: metrics.map((name) => {
      if (name === 'post_reactions_by_type_total') {
        const counts: Record<string, number> = {};
        for (const r of post.reactions) counts[r.type] = (counts[r.type] ?? 0) + 1;
        return row(post.id, name, 'lifetime', { values: [{ value: counts }] });
      }
      if (name === 'post_video_views' && !post.videoId) return row(post.id, name, 'lifetime', { values: [{ value: 0 }] });
      return row(post.id, name, 'lifetime', { values: [{ value: stableNumber(`${post.id}:${name}`, 1, 800) }] });
    }),
  };
}
