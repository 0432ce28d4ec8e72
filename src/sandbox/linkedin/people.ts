// LinkedIn's people: members (`state.people.linkedinMembers`) and organizations with the members
// who hold a role in them (`state.people.linkedinOrganizations`), added by the default seed, the
// control API (`POST /_sandbox/seed` with `linkedin`) and `state.addLinkedInMember()`.
import type { SandboxState } from '../core/state.ts';

export interface LinkedInMember {
  /** The person id of `urn:li:person:{id}`, OpenID's `sub`. */
  id: string;
  name: string;
  givenName: string;
  familyName: string;
  picture: string;
}

/** Roles of organizationAcls; the first three may post as the organization (linkedin.md §3). */
export type LinkedInRole = 'ADMINISTRATOR' | 'CONTENT_ADMIN' | 'DIRECT_SPONSORED_CONTENT_POSTER' | 'ANALYST' | 'CURATOR';
export const POSTING_ROLES: readonly LinkedInRole[] = ['ADMINISTRATOR', 'CONTENT_ADMIN', 'DIRECT_SPONSORED_CONTENT_POSTER'];

export interface LinkedInOrganization {
  id: string;
  name: string;
  vanityName: string;
  logoUrl: string;
  followers: number;
  roles: Array<{ memberId: string; role: LinkedInRole; state: 'APPROVED' | 'REQUESTED' }>;
}

declare module '../core/people.ts' {
  interface People {
    readonly linkedinMembers: Map<string, LinkedInMember>;
    readonly linkedinOrganizations: Map<string, LinkedInOrganization>;
  }
}

export interface NewLinkedInMember {
  name?: string;
  /** Organizations the member holds a role in (created here), default administrator. */
  organizations?: Array<{ name: string; role?: LinkedInRole }>;
}

declare module '../core/state.ts' {
  interface SandboxState {
    addLinkedInMember(input?: NewLinkedInMember): { member: LinkedInMember; organizations: LinkedInOrganization[] };
  }
}

export const freshLinkedInPeople = () => ({ linkedinMembers: new Map<string, LinkedInMember>(), linkedinOrganizations: new Map<string, LinkedInOrganization>() });

export function addLinkedInMember(state: SandboxState, input: NewLinkedInMember = {}): { member: LinkedInMember; organizations: LinkedInOrganization[] } {
  const n = state.people.linkedinMembers.size + 1;
  const name = input.name ?? `Sandbox Member ${n}`;
  const [givenName = name, ...rest] = name.split(' ');
  const member: LinkedInMember = {
    id: state.ids.opaque('linkedin-member', 10),
    name,
    givenName,
    familyName: rest.join(' '),
    picture: 'https://sandbox.invalid/avatars/linkedin.jpg',
  };
  state.people.linkedinMembers.set(member.id, member);
  const organizations = (input.organizations ?? []).map((o) => {
    const organization: LinkedInOrganization = {
      id: state.ids.numeric('linkedin-organization', '1', 8),
      name: o.name,
      vanityName: o.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      logoUrl: 'https://sandbox.invalid/logos/linkedin.png',
      followers: 320,
      roles: [{ memberId: member.id, role: o.role ?? 'ADMINISTRATOR', state: 'APPROVED' }],
    };
    state.people.linkedinOrganizations.set(organization.id, organization);
    return organization;
  });
  return { member, organizations };
}

/** The role that lets the member post as the organization, if any. */
export function postingRole(organization: LinkedInOrganization, memberId: string): LinkedInRole | null {
  return organization.roles.find((r) => r.memberId === memberId && r.state === 'APPROVED' && POSTING_ROLES.includes(r.role))?.role ?? null;
}
