// Pinterest accounts for the suites: a new sandbox user (with a board "Recipes" holding a section
// "Breads", and a board "Reading") and a live token of the scopes the service asks, stored as the
// connect would store it.
import { newId } from '../src/lib/ids.ts';
import type { PinterestBoard } from '../src/sandbox/pinterest/people.ts';
import type { PostsApp } from './posts-support.ts';

export const PINTEREST_SCOPES = ['boards:read', 'boards:read_secret', 'boards:write', 'pins:read', 'pins:read_secret', 'pins:write', 'user_accounts:read'];

export interface PinterestAccount {
  id: string;
  userId: string;
  token: string;
  boards: PinterestBoard[];
}

export async function addPinterestAccount(t: Pick<PostsApp, 'runtime' | 'sandbox'>, organizationId: string): Promise<PinterestAccount> {
  const { sealer, store, clock } = t.runtime.deps;
  const { user, boards } = t.sandbox.addPinterestUser({ boards: [{ name: 'Recipes', sections: ['Breads'] }, { name: 'Reading', privacy: 'SECRET' }] });
  const token = `pina_test_${newId('account').slice(4)}`;
  t.sandbox.issueToken({ value: token, platform: 'pinterest', type: 'user', clientId: 'sandbox-pinterest-app', subjectId: user.id, userId: user.id, scopes: PINTEREST_SCOPES, declined: [], pageIds: [], ttlSeconds: 86_400, longLived: false });
  const id = newId('account');
  const now = clock.now();
  await store.db
    .insertInto('accounts')
    .values({
      id, organization_id: organizationId, platform: 'pinterest', platform_user_id: user.id, username: user.username, display_name: user.username, avatar_url: null, external_id: id, status: 'active',
      approval_required: 0, access_token_enc: sealer.seal(token), refresh_token_enc: null, token_expires_at: null, scopes: PINTEREST_SCOPES.join(','), metadata: '{}', connected_at: now, updated_at: now,
    })
    .execute();
  return { id, userId: user.id, token, boards };
}
