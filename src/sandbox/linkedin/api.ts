// The member and organization reads (linkedin.md §2, §3, §7): OpenID's userinfo, the member's
// organization roles (organizationAcls, q=roleAssignee), organizations by id, and follower counts.
import type { RouteContext } from '../core/router.ts';
import { linkedinAuth, restAuth } from './auth.ts';
import { linkedinError } from './errors.ts';

/** GET api.linkedin.com/v2/userinfo (OpenID Connect; scopes openid and profile). */
export function userinfo(ctx: RouteContext): unknown {
  const { member, token } = linkedinAuth(ctx, ['openid']);
  if (!token.scopes.includes('profile')) throw linkedinError(403, 'Not enough permissions to access: userinfo (needs profile)', { serviceErrorCode: 100, code: 'ACCESS_DENIED' });
  return { sub: member.id, name: member.name, given_name: member.givenName, family_name: member.familyName, picture: member.picture, locale: { country: 'US', language: 'en' } };
}

const ADMIN_READ = ['rw_organization_admin', 'r_organization_admin'];

/** GET /rest/organizationAcls?q=roleAssignee[&role=…][&state=…]: the caller's roles. */
export function organizationAcls(ctx: RouteContext): unknown {
  const caller = restAuth(ctx, ADMIN_READ);
  if (ctx.query.q !== 'roleAssignee') throw linkedinError(400, 'q must be roleAssignee, roleAssigneeByRole or organization', { code: 'ILLEGAL_ARGUMENT' });
  const start = Number(ctx.query.start ?? 0);
  const count = Math.min(100, Number(ctx.query.count ?? 10));
  const elements = [...ctx.state.people.linkedinOrganizations.values()].flatMap((o) =>
    o.roles
      .filter((r) => r.memberId === caller.member.id && (!ctx.query.role || r.role === ctx.query.role) && (!ctx.query.state || r.state === ctx.query.state))
      .map((r) => ({ organization: `urn:li:organization:${o.id}`, role: r.role, roleAssignee: caller.urn, state: r.state })),
  );
  return { elements: elements.slice(start, start + count), paging: { start, count, total: elements.length, links: [] } };
}

/** GET /rest/organizations/{id}: name, vanity name and logo. */
export function organization(ctx: RouteContext): unknown {
  restAuth(ctx, []);
  const found = ctx.state.people.linkedinOrganizations.get(ctx.params.id ?? '');
  if (!found) throw linkedinError(404, `Organization ${ctx.params.id ?? ''} does not exist`, { code: 'NOT_FOUND' });
  return {
    id: Number(found.id),
    localizedName: found.name,
    name: { localized: { en_US: found.name }, preferredLocale: { country: 'US', language: 'en' } },
    vanityName: found.vanityName,
    // The logo's media asset; a URL needs the digitalmediaAsset projection, which the sandbox answers as `original~`.
    logoV2: { original: `urn:li:digitalmediaAsset:${found.id}`, 'original~': { elements: [{ identifiers: [{ identifier: found.logoUrl }] }] } },
  };
}

/** GET /rest/networkSizes/{urn}?edgeType=COMPANY_FOLLOWED_BY_MEMBER. */
export function networkSize(ctx: RouteContext): unknown {
  restAuth(ctx, ['r_organization_social', 'rw_organization_admin']);
  const id = /^urn:li:organization:(\d+)$/.exec(ctx.params.urn ?? '')?.[1] ?? '';
  const found = ctx.state.people.linkedinOrganizations.get(id);
  if (!found) throw linkedinError(404, `Organization ${ctx.params.urn ?? ''} does not exist`, { code: 'NOT_FOUND' });
  return { firstDegreeSize: found.followers };
}
