// TikTok has no insights API for posts: the Display API's video query (`POST /v2/video/query/`,
// scope video.list, up to 20 ids in `filters.video_ids`) gives a public video's counts, and
// `/v2/user/info/` (scope user.info.stats) the creator's totals. Both are mapped from our names
// here. A post published SELF_ONLY, or still in moderation, has only a publish id: it cannot be
// looked up, and says so.
import { PlatformError } from '../errors.ts';
import type { PlatformHttp } from '../http.ts';
import { list, numberOf, obj, str } from '../json.ts';
import type { AccountInsightsReader, MetricName, MetricReadout, PostInsightsReader } from '../insights-types.ts';
import { tiktokData } from './errors.ts';

const API = 'https://open.tiktokapis.com';

const VIDEO: Partial<Record<MetricName, string>> = { views: 'view_count', likes: 'like_count', comments: 'comment_count', shares: 'share_count' };
const USER: Partial<Record<MetricName, string>> = { followers: 'follower_count', likes: 'likes_count', videos: 'video_count' };

/** Picks the mapped fields of one record; the unmapped are unsupported. */
function pick(record: Record<string, unknown>, table: Partial<Record<MetricName, string>>, metrics: readonly MetricName[]): MetricReadout<number> {
  const readout: MetricReadout<number> = { values: {}, unsupported: metrics.filter((m) => !table[m]), failures: [] };
  for (const metric of metrics) {
    const field = table[metric];
    const value = field ? numberOf(record[field]) : null;
    if (value !== null) readout.values[metric] = value;
  }
  return readout;
}

const fieldsOf = (table: Partial<Record<MetricName, string>>, metrics: readonly MetricName[]) => metrics.flatMap((m) => (table[m] ? [table[m]] : []));

export function tiktokInsights(http: PlatformHttp): { post: PostInsightsReader; account: AccountInsightsReader } {
  return {
    post: {
      metrics: Object.keys(VIDEO) as MetricName[],
      async post(account, postId, metrics) {
        const fields = fieldsOf(VIDEO, metrics);
        if (!fields.length) return pick({}, VIDEO, metrics);
        if (!/^\d+$/.test(postId)) throw new PlatformError('not_supported', 'the video has no public id yet (private, or still in moderation): TikTok gives no counts for it', { platform: 'tiktok' });
        const data = tiktokData(await http.send('tiktok', { method: 'POST', url: `${API}/v2/video/query/`, query: { fields: ['id', ...fields].join(',') }, bearer: account.accessToken, json: { filters: { video_ids: [postId] } } }));
        const video = list(data.videos).map(obj).find((v) => str(v.id) === postId);
        if (!video) throw new PlatformError('invalid', 'TikTok did not return the video (deleted or no longer public)', { platform: 'tiktok' });
        return pick(video, VIDEO, metrics);
      },
    },
    account: {
      metrics: Object.keys(USER) as MetricName[],
      async account(account, query) {
        const fields = fieldsOf(USER, query.metrics);
        if (!fields.length) return { values: {}, unsupported: [...query.metrics], failures: [] };
        const data = tiktokData(await http.send('tiktok', { url: `${API}/v2/user/info/`, query: { fields: fields.join(',') }, bearer: account.accessToken }));
        const totals = pick(obj(data.user), USER, query.metrics);
        // Lifetime totals: TikTok keeps no series or periods for them.
        const values = Object.fromEntries(Object.entries(totals.values).map(([m, total]) => [m, { period: 'lifetime', total, values: [], breakdown: [] }]));
        return { values, unsupported: totals.unsupported, failures: [] };
      },
    },
  };
}
