// Organization statistics (linkedin.md §7): share statistics per post
// (`organizationalEntityShareStatistics?q=organizationalEntity&…&shares=List(urn…)`, lifetime
// totals; r_organization_social and a role in the organization) with the counts the sandbox keeps
// (comments counted from its comments; the rest from the post's `stats`).
import type { RouteContext } from '../core/router.ts';
import { restAuth } from './auth.ts';
import { checkActor } from './acting.ts';
import { linkedinError } from './errors.ts';

/** The URNs of a Rest.li 2.0 `List(…)` parameter. */
const listOf = (value: string | undefined): string[] => {
  const inner = /^List\((.*)\)$/.exec(value ?? '')?.[1];
  return inner ? inner.split(',').map((u) => decodeURIComponent(u)).filter(Boolean) : [];
};

export function shareStatistics(ctx: RouteContext): unknown {
  const caller = restAuth(ctx, ['r_organization_social', 'r_organization_social_feed']);
  if (ctx.query.q !== 'organizationalEntity') throw linkedinError(400, 'q must be organizationalEntity', { code: 'ILLEGAL_ARGUMENT' });
  const organization = ctx.query.organizationalEntity ?? '';
  checkActor(ctx.state, caller, organization, 'read', 'organizationalEntity');
  const urns = [...listOf(ctx.query.shares), ...listOf(ctx.query.ugcPosts)];
  const elements = urns.flatMap((urn) => {
    const post = ctx.state.linkedin.posts.get(urn);
    if (!post || post.author !== organization) return [];
    const comments = [...ctx.state.linkedin.comments.values()].filter((c) => c.postUrn === urn && !c.deleted).length;
    const s = post.stats;
    const engagement = s.impressionCount ? (s.likeCount + comments + s.shareCount + s.clickCount) / s.impressionCount : 0;
    return [{ organizationalEntity: organization, [urn.startsWith('urn:li:ugcPost:') ? 'ugcPost' : 'share']: urn, totalShareStatistics: { ...s, commentCount: comments, engagement } }];
  });
  return { elements, paging: { start: 0, count: elements.length, links: [] } };
}
