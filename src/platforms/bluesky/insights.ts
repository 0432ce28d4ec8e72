// Bluesky metrics (DESIGN "Analytics", the bluesky column; bluesky.md §6): a post's counts from
// getPosts (likes, replies as comments, reposts, quotes; Bluesky has no views, reach or clicks),
// and the account's followers from getProfile. Demographics and online followers do not exist.
import { PlatformError } from '../errors.ts';
import type { AccountInsightsReader, MetricName, MetricReadout, PostInsightsReader } from '../insights-types.ts';
import { numberOf, obj, type Json } from '../json.ts';
import { postView } from './comments.ts';
import { sessionOf } from './connect.ts';
import type { Xrpc } from './xrpc.ts';

/** Our name → the post view's count. */
const POST_METRICS: Partial<Record<MetricName, (post: Json) => unknown>> = {
  likes: (p) => p.likeCount,
  comments: (p) => p.replyCount,
  reposts: (p) => p.repostCount,
  quotes: (p) => p.quoteCount,
};

export function blueskyInsights(api: Xrpc): PostInsightsReader {
  return {
    metrics: Object.keys(POST_METRICS) as MetricName[],
    async post(account, postUri, metrics) {
      const readout: MetricReadout<number> = { values: {}, unsupported: metrics.filter((m) => !POST_METRICS[m]), failures: [] };
      if (readout.unsupported.length === metrics.length) return readout;
      const view = await postView(api, sessionOf(account), postUri);
      if (!view) throw new PlatformError('invalid', `Bluesky has no post ${postUri} (deleted, or not visible)`, { platform: 'bluesky' });
      for (const metric of metrics) {
        const read = POST_METRICS[metric];
        if (!read) continue;
        const value = numberOf(read(view));
        if (value !== null) readout.values[metric] = value;
        else readout.unsupported.push(metric);
      }
      return readout;
    },
  };
}

/** The account's followers now (followersCount); every other account metric is unsupported. */
export function blueskyAccountInsights(api: Xrpc): AccountInsightsReader {
  return {
    metrics: ['followers'],
    async account(account, query) {
      const unsupported = query.metrics.filter((m) => m !== 'followers');
      if (!query.metrics.includes('followers')) return { values: {}, unsupported, failures: [] };
      const session = sessionOf(account);
      const profile = obj(await api.call(session.pds, 'app.bsky.actor.getProfile', { query: { actor: session.did }, bearer: session.token }));
      const followers = numberOf(profile.followersCount);
      return { values: followers === null ? {} : { followers: { period: 'lifetime', total: followers, values: [], breakdown: [] } }, unsupported, failures: [] };
    },
  };
}
