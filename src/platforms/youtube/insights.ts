// YouTube analytics (DESIGN "More platforms", Analytics; youtube.md §7): a video's live counters
// from videos.list part=statistics (viewCount → views, likeCount → likes, commentCount →
// comments), and from the Analytics API report of the video since its upload: shares, views →
// videoViews, subscribersGained → follows (and by YouTube's own name), estimatedMinutesWatched →
// watchTimeMinutes. The channel's subscriberCount → followers and videoCount → videos.
// Analytics data lags one to two days.
import type { AccountInsightsReader, MetricName, MetricReadout, PostInsightsReader } from '../insights-types.ts';
import { list, obj, text } from '../json.ts';
import { ANALYTICS_API, DATA_API, type YouTubeApi } from './api.ts';

const STATISTICS: Partial<Record<MetricName, string>> = { views: 'viewCount', likes: 'likeCount', comments: 'commentCount' };
const REPORT: Partial<Record<MetricName, string>> = {
  shares: 'shares',
  videoViews: 'views',
  follows: 'subscribersGained',
  subscribersGained: 'subscribersGained',
  watchTimeMinutes: 'estimatedMinutesWatched',
};

const count = (value: unknown): number | null => {
  const n = Number(text(value) || Number.NaN);
  return Number.isFinite(n) ? n : null;
};

export function youtubeInsights(api: YouTubeApi): { post: PostInsightsReader; account: AccountInsightsReader } {
  return {
    post: {
      metrics: [...Object.keys(STATISTICS), ...Object.keys(REPORT)] as MetricName[],
      async post(account, videoId, metrics) {
        const readout: MetricReadout<number> = { values: {}, unsupported: metrics.filter((m) => !STATISTICS[m] && !REPORT[m]), failures: [] };
        const token = account.accessToken;
        const body = await api.json({ url: `${DATA_API}/videos`, query: { part: 'snippet,statistics', id: videoId }, token, units: 1 });
        const video = obj(list(body.items)[0]);
        const stats = obj(video.statistics);
        for (const metric of metrics) {
          const name = STATISTICS[metric];
          const value = name ? count(stats[name]) : null;
          if (value !== null) readout.values[metric] = value;
        }
        const asked = metrics.filter((m) => REPORT[m]);
        if (asked.length) {
          const published = text(obj(video.snippet).publishedAt).slice(0, 10) || '2005-04-23';
          const report = await api.http.send('youtube', {
            url: `${ANALYTICS_API}/reports`,
            query: { ids: 'channel==MINE', startDate: published, endDate: new Date(Date.parse(published) + 3650 * 86_400_000).toISOString().slice(0, 10), metrics: asked.map((m) => REPORT[m]).join(','), filters: `video==${videoId}` },
            bearer: token,
          });
          if (report.status === 200) {
            const row = list(list(obj(report.body).rows)[0]);
            asked.forEach((metric, i) => {
              const value = count(row[i]);
              if (value !== null) readout.values[metric] = value;
            });
          } else {
            // yt-analytics.readonly not granted, or the report not ready: the live counters still stand.
            readout.unsupported.push(...asked);
          }
        }
        return readout;
      },
    },
    account: {
      metrics: ['followers', 'videos'],
      async account(account, query) {
        const body = await api.json({ url: `${DATA_API}/channels`, query: { part: 'statistics', mine: 'true' }, token: account.accessToken, units: 1 });
        const channel = list(body.items).map(obj).find((c) => text(c.id) === account.platformUserId) ?? obj(list(body.items)[0]);
        const stats = obj(channel.statistics);
        const values: MetricReadout<never>['values'] = {};
        const readout = { values: values as Record<string, unknown>, unsupported: query.metrics.filter((m) => m !== 'followers' && m !== 'videos'), failures: [] };
        const followers = stats.hiddenSubscriberCount === true ? null : count(stats.subscriberCount);
        if (query.metrics.includes('followers') && followers !== null) readout.values.followers = { period: 'lifetime', total: followers, values: [], breakdown: [] };
        const videos = count(stats.videoCount);
        if (query.metrics.includes('videos') && videos !== null) readout.values.videos = { period: 'lifetime', total: videos, values: [], breakdown: [] };
        return readout;
      },
    },
  };
}
