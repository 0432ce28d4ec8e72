// LinkedIn accounts for the posts suites: a sandbox member (and, for an organization account, an
// organization they administer) with a live token, inserted as the connect flow stores them
// (platformUserId is the author URN; organization accounts carry the member's token and memberId).
import { newId } from '../src/lib/ids.ts';
import type { PostsApp } from './posts-support.ts';

const SCOPES = ['openid', 'profile', 'w_member_social', 'w_organization_social', 'r_organization_social', 'rw_organization_admin'];

export interface LinkedInAccount {
  id: string;
  token: string;
  author: string;
  memberId: string;
}

export async function addLinkedInAccount(t: PostsApp, organizationId: string, kind: 'person' | 'organization'): Promise<LinkedInAccount> {
  const { sealer, store, clock } = t.runtime.deps;
  const n = t.sandbox.people.linkedinMembers.size + 1;
  const { member, organizations } = t.sandbox.addLinkedInMember({ name: `Member ${n}`, organizations: kind === 'organization' ? [{ name: `Organization ${n}` }] : [] });
  const token = `AQV-test-${newId('account').slice(4)}`;
  t.sandbox.issueToken({ value: token, platform: 'linkedin', type: 'user', clientId: 'sandbox-linkedin-client', subjectId: member.id, userId: member.id, scopes: SCOPES, declined: [], pageIds: [], ttlSeconds: 86_400, longLived: true });
  const organization = organizations[0];
  const author = organization ? `urn:li:organization:${organization.id}` : `urn:li:person:${member.id}`;
  const id = newId('account');
  const now = clock.now();
  await store.db
    .insertInto('accounts')
    .values({
      id,
      organization_id: organizationId,
      platform: 'linkedin',
      platform_user_id: author,
      username: organization?.vanityName ?? null,
      display_name: organization?.name ?? member.name,
      avatar_url: null,
      external_id: id,
      status: 'active',
      approval_required: 0,
      access_token_enc: sealer.seal(token),
      refresh_token_enc: null,
      token_expires_at: null,
      scopes: SCOPES.join(','),
      metadata: JSON.stringify(organization ? { kind: 'organization', memberId: member.id, organizationId: organization.id } : { kind: 'person', memberId: member.id }),
      connected_at: now,
      updated_at: now,
    })
    .execute();
  return { id, token, author, memberId: member.id };
}
