// pinterest Pin metrics (DESIGN "Analytics", the pinterest column; pinterest.md §5): one read of
// the Pin with its lifetime pin_metrics (GET /v5/pins/{id}?pin_metrics=true), which needs no
// date range (the adapter has no clock of its own; the analytics endpoint wants start and end
// dates). Our names from Pinterest's: views ← impression, saves ← save, clicks ← pin_click,
// websiteClicks ← outbound_click (clickthrough), likes ← reaction, comments ← comment, videoViews
// ← video_mrc_view; a count the answer lacks is `unsupported` for that Pin. The account's
// followers come from /v5/user_account's follower_count.
import { PlatformError } from '../errors.ts';
import type { AccountInsightsReader, MetricName, MetricReadout, PostInsightsReader } from '../insights-types.ts';
import { numberOf, obj, text } from '../json.ts';
import type { PinterestApi } from './api.ts';

const POST_METRICS: Partial<Record<MetricName, readonly string[]>> = {
  views: ['impression'],
  saves: ['save'],
  clicks: ['pin_click'],
  websiteClicks: ['outbound_click', 'clickthrough'],
  likes: ['reaction'],
  comments: ['comment'],
  videoViews: ['video_mrc_view'],
};

export function pinterestInsights(api: PinterestApi): PostInsightsReader {
  return {
    metrics: Object.keys(POST_METRICS) as MetricName[],
    async post(account, pinId, metrics) {
      const readout: MetricReadout<number> = { values: {}, unsupported: metrics.filter((m) => !POST_METRICS[m]), failures: [] };
      if (readout.unsupported.length === metrics.length) return readout;
      const pin = await api.json(account.accessToken, { path: `/pins/${encodeURIComponent(pinId)}`, query: { pin_metrics: 'true' } });
      if (!text(pin.id)) throw new PlatformError('invalid', 'Pinterest did not return the Pin', { platform: 'pinterest' });
      const lifetime = obj(obj(pin.pin_metrics).lifetime_metrics);
      for (const metric of metrics) {
        const names = POST_METRICS[metric];
        if (!names) continue;
        const value = names.map((n) => numberOf(lifetime[n])).find((v) => v !== null) ?? null;
        if (value !== null) readout.values[metric] = value;
        else readout.unsupported.push(metric);
      }
      return readout;
    },
  };
}

/** The account's followers (DESIGN "Analytics": follower_count of /v5/user_account); every other account metric is unsupported. */
export function pinterestAccountInsights(api: PinterestApi): AccountInsightsReader {
  return {
    metrics: ['followers'],
    async account(account, query) {
      const unsupported = query.metrics.filter((m) => m !== 'followers');
      if (!query.metrics.includes('followers')) return { values: {}, unsupported, failures: [] };
      const me = await api.json(account.accessToken, { path: '/user_account' });
      const followers = numberOf(me.follower_count);
      return { values: followers === null ? {} : { followers: { period: 'lifetime', total: followers, values: [], breakdown: [] } }, unsupported: followers === null ? [...unsupported, 'followers'] : unsupported, failures: [] };
    },
  };
}
