// reddit has no insights API: a link's `score`, `ups`, `upvote_ratio` and `num_comments` (read
// with `GET /api/info?id=t3_…`, platforms.md §6.2) are what it tells the poster. Mapped from our
// names here; reddit has no account insights a poster could read per period.
import { PlatformError } from '../errors.ts';
import type { PlatformHttp } from '../http.ts';
import { list, numberOf, obj, str } from '../json.ts';
import type { MetricName, MetricReadout, PostInsightsReader } from '../insights-types.ts';
import type { AccountCredentials } from '../types.ts';
import { redditApi } from './errors.ts';

const API = 'https://oauth.reddit.com';

const LINK: Partial<Record<MetricName, string>> = { score: 'score', likes: 'ups', upvoteRatio: 'upvote_ratio', comments: 'num_comments' };

export function redditInsights(http: PlatformHttp, userAgent: string): PostInsightsReader {
  const headers = (account: AccountCredentials) => ({ authorization: `bearer ${account.accessToken}`, 'user-agent': userAgent });
  return {
    metrics: Object.keys(LINK) as MetricName[],
    async post(account, postId, metrics) {
      const readout: MetricReadout<number> = { values: {}, unsupported: metrics.filter((m) => !LINK[m]), failures: [] };
      if (readout.unsupported.length === metrics.length) return readout;
      const fullname = postId.startsWith('t3_') ? postId : `t3_${postId}`;
      const body = redditApi(await http.send('reddit', { url: `${API}/api/info`, query: { id: fullname, raw_json: 1 }, headers: headers(account) }));
      const link = list(obj(body.data).children).map((c) => obj(obj(c).data)).find((d) => str(d.name) === fullname);
      if (!link) throw new PlatformError('invalid', 'reddit did not return the post (deleted or removed)', { platform: 'reddit' });
      for (const metric of metrics) {
        const field = LINK[metric];
        const value = field ? numberOf(link[field]) : null;
        if (value !== null) readout.values[metric] = value;
      }
      return readout;
    },
  };
}
