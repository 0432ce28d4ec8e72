// Connecting LinkedIn (DESIGN "More platforms", Connect; linkedin.md §2, §3): the code exchanged
// for the member's token, the member from /v2/userinfo, and, with LINKEDIN_ORGANIZATIONS=1, the
// organizations the member may post for (organizationAcls, roles ADMINISTRATOR, CONTENT_ADMIN,
// DIRECT_SPONSORED_CONTENT_POSTER) offered beside the member as a pending choice, as facebook Pages
// are. Without one, the member connects at once. Organization accounts act with the member's
// token, and keep the member's id in their metadata.
import { requireApp, type PlatformContext } from '../context.ts';
import { PlatformError } from '../errors.ts';
import { list, numberOf, obj, str, text, type Json } from '../json.ts';
import type { ConnectedAccount, ConnectOption, OAuthConnector, ChoiceResolver, TokenSet } from '../types.ts';
import { LINKEDIN_WWW, linkedinBody, type LinkedInApi } from './api.ts';
import { LINKEDIN_MEMBER_SCOPES, LINKEDIN_ORGANIZATION_SCOPES } from './features.ts';

const POSTING_ROLES = new Set(['ADMINISTRATOR', 'CONTENT_ADMIN', 'DIRECT_SPONSORED_CONTENT_POSTER']);

export const scopesAsked = (organizations: boolean): string[] => (organizations ? [...LINKEDIN_MEMBER_SCOPES, ...LINKEDIN_ORGANIZATION_SCOPES] : [...LINKEDIN_MEMBER_SCOPES]);

/** The token answer, times in epoch ms; the refresh token's fixed end is kept beside it. */
export function tokenFrom(body: Json, now: number, previous: { refreshToken: string | null; scopes: string[] } | null): { token: TokenSet; refreshExpiresAt: number | null } {
  const expiresIn = numberOf(body.expires_in);
  const refreshIn = numberOf(body.refresh_token_expires_in);
  const scopes = text(body.scope).split(/[\s,]+/).filter(Boolean);
  return {
    token: {
      accessToken: text(body.access_token),
      refreshToken: str(body.refresh_token) ?? previous?.refreshToken ?? null,
      expiresAt: expiresIn !== null ? now + expiresIn * 1000 : null,
      scopes: scopes.length ? scopes : (previous?.scopes ?? []),
    },
    refreshExpiresAt: refreshIn !== null ? now + refreshIn * 1000 : null,
  };
}

interface Member {
  id: string;
  name: string;
  picture: string | null;
}

interface Organization {
  id: string;
  name: string;
  vanityName: string | null;
  logoUrl: string | null;
}

async function memberOf(api: LinkedInApi, token: string): Promise<Member> {
  const body = linkedinBody(await api.http.send('linkedin', { url: 'https://api.linkedin.com/v2/userinfo', bearer: token }));
  const id = str(body.sub);
  if (!id) throw new PlatformError('permanent', 'userinfo named no member', { platform: 'linkedin' });
  return { id, name: text(body.name) || [text(body.given_name), text(body.family_name)].filter(Boolean).join(' '), picture: str(body.picture) };
}

/** The organizations the member may post for (approved roles), with their names and logos. */
async function organizationsOf(api: LinkedInApi, token: string): Promise<Organization[]> {
  const ids: string[] = [];
  for (let start = 0; ; start += 100) {
    const page = await api.restJson({ path: '/organizationAcls', token, query: { q: 'roleAssignee', state: 'APPROVED', start, count: 100 } });
    for (const element of list(page.elements).map(obj)) {
      const id = /^urn:li:organization:(\d+)$/.exec(text(element.organization))?.[1];
      if (id && POSTING_ROLES.has(text(element.role)) && !ids.includes(id)) ids.push(id);
    }
    if (list(page.elements).length < 100) break;
  }
  return Promise.all(
    ids.map(async (id) => {
      const org = await api.restJson({ path: `/organizations/${id}`, token });
      const logo = obj(obj(org.logoV2)['original~']);
      return {
        id,
        name: text(org.localizedName) || id,
        vanityName: str(org.vanityName),
        logoUrl: str(obj(list(obj(list(logo.elements)[0]).identifiers)[0]).identifier),
      };
    }),
  );
}

const personUrn = (id: string) => `urn:li:person:${id}`;
const organizationUrn = (id: string) => `urn:li:organization:${id}`;

function personAccount(member: Member, token: TokenSet, refreshExpiresAt: number | null): ConnectedAccount {
  return {
    profile: {
      platformUserId: personUrn(member.id),
      username: null,
      displayName: member.name,
      avatarUrl: member.picture,
      metadata: { kind: 'person', memberId: member.id, ...(refreshExpiresAt !== null ? { refreshTokenExpiresAt: refreshExpiresAt } : {}) },
      // One member token for the member and their organizations: a reconnect updates them all.
      tokenGroup: member.id,
    },
    token,
  };
}

function organizationAccount(member: Member, organization: Organization, token: TokenSet, refreshExpiresAt: number | null): ConnectedAccount {
  return {
    profile: {
      platformUserId: organizationUrn(organization.id),
      username: organization.vanityName,
      displayName: organization.name,
      avatarUrl: organization.logoUrl,
      metadata: { kind: 'organization', memberId: member.id, organizationId: organization.id, ...(refreshExpiresAt !== null ? { refreshTokenExpiresAt: refreshExpiresAt } : {}) },
      tokenGroup: member.id,
    },
    token,
  };
}

export function linkedinConnector(ctx: PlatformContext, api: LinkedInApi): OAuthConnector {
  return {
    flavour: 'linkedin',
    // LinkedIn's refusals (linkedin.md §2): the person cancelled the consent or the sign-in.
    cancelErrors: ['user_cancelled_authorize', 'user_cancelled_login'],
    authorizeUrl({ state, redirectUri }) {
      const app = requireApp(ctx.apps, 'linkedin');
      const url = new URL(`${LINKEDIN_WWW}/oauth/v2/authorization`);
      // Scopes space-separated, the spaces as %20 (LinkedIn's documented form) rather than '+'.
      url.search = new URLSearchParams({ response_type: 'code', client_id: app.clientId, redirect_uri: redirectUri, state, scope: scopesAsked(api.settings.organizations).join(' ') }).toString().replace(/\+/g, '%20');
      return ctx.http.browserUrl(url.toString());
    },
    async complete({ code, redirectUri, now }) {
      const app = requireApp(ctx.apps, 'linkedin');
      const answer = linkedinBody(
        await ctx.http.send('linkedin', {
          method: 'POST',
          url: `${LINKEDIN_WWW}/oauth/v2/accessToken`,
          form: { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: app.clientId, client_secret: app.clientSecret },
        }),
      );
      const { token, refreshExpiresAt } = tokenFrom(answer, now, null);
      const member = await memberOf(api, token.accessToken);
      const organizations = api.settings.organizations ? await organizationsOf(api, token.accessToken) : [];
      if (organizations.length === 0) return { kind: 'account', account: personAccount(member, token, refreshExpiresAt) };
      const options: ConnectOption[] = [
        { id: personUrn(member.id), name: member.name, kind: 'person', pictureUrl: member.picture },
        ...organizations.map((o) => ({ id: organizationUrn(o.id), name: o.name, kind: 'organization', username: o.vanityName, pictureUrl: o.logoUrl })),
      ];
      // The refresh token and its fixed end go with the choice, for the accounts picked from it.
      return { kind: 'choices', userToken: { ...token, refreshExpiresAt }, options };
    },
  };
}

/** The token's expiry and scopes as LinkedIn reports them (introspectToken). */
export async function introspect(ctx: PlatformContext, token: string): Promise<{ active: boolean; expiresAt: number | null; scopes: string[] }> {
  const app = requireApp(ctx.apps, 'linkedin');
  const body = linkedinBody(
    await ctx.http.send('linkedin', { method: 'POST', url: `${LINKEDIN_WWW}/oauth/v2/introspectToken`, form: { client_id: app.clientId, client_secret: app.clientSecret, token } }),
  );
  const expiresAt = numberOf(body.expires_at);
  return { active: body.active === true, expiresAt: expiresAt === null ? null : expiresAt * 1000, scopes: text(body.scope).split(/[\s,]+/).filter(Boolean) };
}

/**
 * Accounts for the chosen options, each with the member's token (its expiry and scopes read back
 * from LinkedIn: a pending connection keeps only the access token).
 */
export function linkedinChoices(ctx: PlatformContext, api: LinkedInApi): ChoiceResolver {
  return {
    async resolve({ userToken, token: consented, optionIds }) {
      const inspected = await introspect(ctx, userToken);
      if (!inspected.active) throw new PlatformError('auth', 'the member token is no longer active', { platform: 'linkedin' });
      const refreshExpiresAt = consented.refreshExpiresAt ?? null;
      const token: TokenSet = {
        accessToken: userToken,
        refreshToken: consented.refreshToken,
        expiresAt: inspected.expiresAt ?? consented.expiresAt,
        scopes: inspected.scopes.length ? inspected.scopes : consented.scopes,
      };
      const member = await memberOf(api, userToken);
      const wantsOrganizations = optionIds.some((id) => id.startsWith('urn:li:organization:'));
      const organizations = wantsOrganizations ? await organizationsOf(api, userToken) : [];
      return optionIds.map((id) => {
        if (id === personUrn(member.id)) return personAccount(member, token, refreshExpiresAt);
        const organization = organizations.find((o) => organizationUrn(o.id) === id);
        if (!organization) throw new PlatformError('permission', `the member no longer administers ${id}`, { platform: 'linkedin' });
        return organizationAccount(member, organization, token, refreshExpiresAt);
      });
    },
  };
}
