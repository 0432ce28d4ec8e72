// x post metrics (platforms/x.md §10; DESIGN "Analytics", the x column): one lookup of the post
// with its public metrics, the owner's non-public ones (link clicks, posts under 30 days) and its
// video's view count; the account's followers from /2/users/me public_metrics. Reads are paid:
// with X_READS off the read is refused without a call, naming the setting.
import { PlatformError } from '../errors.ts';
import type { PlatformHttp } from '../http.ts';
import type { AccountInsightsReader, MetricName, MetricReadout, PostInsightsReader } from '../insights-types.ts';
import { list, numberOf, obj, text, type Json } from '../json.ts';
import { xBody } from './errors.ts';

/** Our name → where X keeps it in the post (or its media). */
const POST_METRICS: Partial<Record<MetricName, (post: Json, media: Json) => unknown>> = {
  views: (p) => obj(p.public_metrics).impression_count,
  likes: (p) => obj(p.public_metrics).like_count,
  comments: (p) => obj(p.public_metrics).reply_count,
  reposts: (p) => obj(p.public_metrics).retweet_count,
  quotes: (p) => obj(p.public_metrics).quote_count,
  saves: (p) => obj(p.public_metrics).bookmark_count,
  clicks: (p) => obj(p.non_public_metrics).url_link_clicks,
  videoViews: (_p, m) => obj(m.public_metrics).view_count,
};

export function xInsights(http: PlatformHttp, reads: boolean): PostInsightsReader {
  return {
    metrics: Object.keys(POST_METRICS) as MetricName[],
    async post(account, postId, metrics) {
      const readout: MetricReadout<number> = { values: {}, unsupported: metrics.filter((m) => !POST_METRICS[m]), failures: [] };
      if (readout.unsupported.length === metrics.length) return readout;
      if (!reads) throw new PlatformError('not_supported', 'X metrics are paid reads: set X_READS=1 to read them', { platform: 'x' });
      const body = xBody(
        await http.send('x', {
          url: `https://api.x.com/2/tweets/${encodeURIComponent(postId)}`,
          query: { 'tweet.fields': 'public_metrics,non_public_metrics', expansions: 'attachments.media_keys', 'media.fields': 'public_metrics' },
          bearer: account.accessToken,
        }),
      );
      const post = obj(body.data);
      if (!text(post.id)) throw new PlatformError('invalid', 'X did not return the post (deleted or not visible)', { platform: 'x' });
      const media = list(obj(body.includes).media).map(obj)[0] ?? {};
      for (const metric of metrics) {
        const value = numberOf(POST_METRICS[metric]?.(post, media));
        if (value !== null) readout.values[metric] = value;
        else if (POST_METRICS[metric] && !readout.unsupported.includes(metric)) readout.unsupported.push(metric);
      }
      return readout;
    },
  };
}

/** The account's followers (DESIGN: followers_count), now; every other account metric is unsupported. */
export function xAccountInsights(http: PlatformHttp, reads: boolean): AccountInsightsReader {
  return {
    metrics: ['followers'],
    async account(account, query) {
      const unsupported = query.metrics.filter((m) => m !== 'followers');
      if (!query.metrics.includes('followers')) return { values: {}, unsupported, failures: [] };
      if (!reads) throw new PlatformError('not_supported', 'X metrics are paid reads: set X_READS=1 to read them', { platform: 'x' });
      const body = xBody(await http.send('x', { url: 'https://api.x.com/2/users/me', query: { 'user.fields': 'public_metrics' }, bearer: account.accessToken }));
      const followers = numberOf(obj(obj(body.data).public_metrics).followers_count);
      return { values: followers === null ? {} : { followers: { period: 'lifetime', total: followers, values: [], breakdown: [] } }, unsupported, failures: [] };
    },
  };
}
