// x accounts for the delivery suites: a new sandbox user per account, with a live token of the
// scopes the service asks, stored as the connect would store it.
import { newId } from '../src/lib/ids.ts';
import type { PostsApp } from './posts-support.ts';

const SCOPES = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access', 'tweet.moderate.write', 'like.read', 'like.write'];

/** An x account of the organization: a new sandbox user with a live token. */
export async function addXAccount(t: PostsApp, organizationId: string): Promise<{ id: string; userId: string; username: string }> {
  const { sealer, store, clock } = t.runtime.deps;
  const user = t.sandbox.addXUser();
  const token = `x-token-${newId('account').slice(4)}`;
  t.sandbox.issueToken({ value: token, platform: 'x', type: 'user', clientId: 'sandbox-x-client', subjectId: user.id, userId: user.id, scopes: SCOPES, declined: [], pageIds: [], ttlSeconds: 86_400, longLived: false });
  const id = newId('account');
  const now = clock.now();
  await store.db
    .insertInto('accounts')
    .values({
      id, organization_id: organizationId, platform: 'x', platform_user_id: user.id, username: user.username, display_name: user.name, avatar_url: null, external_id: id, status: 'active',
      approval_required: 0, access_token_enc: sealer.seal(token), refresh_token_enc: null, token_expires_at: null, scopes: SCOPES.join(' '), metadata: '{}', connected_at: now, updated_at: now,
    })
    .execute();
  return { id, userId: user.id, username: user.username };
}

