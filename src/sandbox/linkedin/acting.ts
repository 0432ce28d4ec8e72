// Who a call acts as (linkedin.md §4, §10): a member's own person URN with w_member_social
// (reading their posts needs the restricted r_member_social), or an organization where the member
// holds a posting role with w_organization_social (reads: r_organization_social). A member who
// lost the role gets 403 for the organization while their own posts still work.
import { linkedinError } from './errors.ts';
import type { LinkedInCaller } from './auth.ts';
import type { SandboxState } from '../core/state.ts';
import { postingRole } from './people.ts';

const denied = (message: string) => linkedinError(403, message, { serviceErrorCode: 100, code: 'ACCESS_DENIED' });

export function checkActor(state: SandboxState, caller: LinkedInCaller, urn: string, access: 'write' | 'read', field = 'author'): void {
  const has = (...scopes: string[]) => scopes.some((s) => caller.token.scopes.includes(s));
  const person = /^urn:li:person:([A-Za-z0-9_-]+)$/.exec(urn);
  if (person) {
    if (urn !== caller.urn) throw denied(`Not enough permissions to act as ${urn}: it is not the authenticated member`);
    if (access === 'write' && !has('w_member_social', 'w_member_social_feed')) throw denied('Not enough permissions: w_member_social is required');
    if (access === 'read' && !has('r_member_social')) throw denied('Not enough permissions: r_member_social is required to read member posts');
    return;
  }
  const org = /^urn:li:organization:(\d+)$/.exec(urn);
  if (!org) throw linkedinError(422, `/${field}: ${urn} is not a valid person or organization URN`, { code: 'UNPROCESSABLE_ENTITY' });
  const organization = state.people.linkedinOrganizations.get(org[1] ?? '');
  if (!organization) throw linkedinError(404, `Organization ${urn} does not exist`, { code: 'NOT_FOUND' });
  if (!postingRole(organization, caller.member.id)) throw denied(`Not enough permissions: the member holds no posting role in ${urn}`);
  if (access === 'write' && !has('w_organization_social', 'w_organization_social_feed')) throw denied('Not enough permissions: w_organization_social is required');
  if (access === 'read' && !has('r_organization_social', 'r_organization_social_feed')) throw denied('Not enough permissions: r_organization_social is required');
}
