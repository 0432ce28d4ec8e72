// LinkedIn analytics (DESIGN "More platforms", Analytics): organization posts from
// organizationalEntityShareStatistics (lifetime totals: impressionCount → views,
// uniqueImpressionsCount → reach, likeCount, commentCount, shareCount → shares, clickCount →
// clicks) and the organization's followers from networkSizes. A member's post statistics are
// restricted: every metric of a person account is `unsupported`, with no call.
import type { AccountInsightsReader, MetricName, MetricReadout, PostInsightsReader } from '../insights-types.ts';
import { list, numberOf, obj, text } from '../json.ts';
import { urnPath, type LinkedInApi } from './api.ts';
import { isOrganization } from './features.ts';

const POST: Partial<Record<MetricName, string>> = {
  views: 'impressionCount',
  reach: 'uniqueImpressionsCount',
  likes: 'likeCount',
  comments: 'commentCount',
  shares: 'shareCount',
  clicks: 'clickCount',
};

const none = <V>(metrics: readonly MetricName[]): MetricReadout<V> => ({ values: {}, unsupported: [...metrics], failures: [] });

export function linkedinInsights(api: LinkedInApi): { post: PostInsightsReader; account: AccountInsightsReader } {
  return {
    post: {
      metrics: Object.keys(POST) as MetricName[],
      async post(account, urn, metrics) {
        if (!isOrganization(account.metadata)) return none(metrics);
        // Rest.li 2.0 lists: List(…) with each URN encoded (linkedin.md §7).
        const kind = urn.startsWith('urn:li:ugcPost:') ? 'ugcPosts' : 'shares';
        const body = await api.restJson({
          path: `/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${urnPath(account.platformUserId)}&${kind}=List(${urnPath(urn)})`,
          token: account.accessToken,
        });
        const stats = obj(obj(list(body.elements).map(obj).find((e) => text(e.share) === urn || text(e.ugcPost) === urn) ?? {}).totalShareStatistics);
        const readout: MetricReadout<number> = { values: {}, unsupported: metrics.filter((m) => !POST[m]), failures: [] };
        for (const metric of metrics) {
          const name = POST[metric];
          const value = name ? numberOf(stats[name]) : null;
          if (value !== null) readout.values[metric] = value;
        }
        return readout;
      },
    },
    account: {
      metrics: ['followers'],
      async account(account, query) {
        if (!isOrganization(account.metadata) || !query.metrics.includes('followers')) return none(query.metrics);
        const body = await api.restJson({ path: `/networkSizes/${urnPath(account.platformUserId)}`, token: account.accessToken, query: { edgeType: 'COMPANY_FOLLOWED_BY_MEMBER' } });
        const followers = numberOf(body.firstDegreeSize);
        return {
          values: followers === null ? {} : { followers: { period: 'lifetime', total: followers, values: [], breakdown: [] } },
          unsupported: query.metrics.filter((m) => m !== 'followers'),
          failures: [],
        };
      },
    },
  };
}
