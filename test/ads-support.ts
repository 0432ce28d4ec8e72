// Shared by the ads suites: a facebook Page account as connect stores it (the Page token on the
// account, the person's user token sealed in account_user_tokens), owned by a new sandbox
// Facebook user who has one ad account in the currency asked for.
import { sandboxApp } from '../src/platforms/registry.ts';
import { newId } from '../src/lib/ids.ts';
import { addAdAccount } from '../src/sandbox/ads/seed.ts';
import type { PostsApp } from './posts-support.ts';

export const ADS_SCOPES = ['pages_show_list', 'pages_manage_posts', 'pages_read_engagement', 'ads_management', 'ads_read', 'business_management'];

export interface AdsAccount {
  id: string;
  pageId: string;
  userId: string;
  adAccountId: string;
  userToken: string;
}

export interface AdsAccountOptions {
  currency?: string;
  /** The user token's scopes (default ADS_SCOPES). */
  scopes?: string[];
  /** false: an account connected before ads existed (no user token kept). */
  userToken?: boolean;
}

export async function addAdsAccount(t: PostsApp, organizationId: string, options: AdsAccountOptions = {}): Promise<AdsAccount> {
  const { user, pages } = t.sandbox.addFacebookUser({ pages: [{}] });
  const page = pages[0];
  if (!page) throw new Error('the sandbox made no Page');
  const adAccount = addAdAccount(t.sandbox, { ownerUserId: user.id, currency: options.currency ?? 'USD', name: `Ads of ${user.name}` });
  const suffix = newId('account').slice(4);
  const pageToken = `fb-page-token-${suffix}`;
  const userToken = `fb-user-token-${suffix}`;
  const scopes = options.scopes ?? ADS_SCOPES;
  const common = { clientId: sandboxApp('meta').clientId, declined: [], longLived: true, platform: 'facebook' as const, pageIds: [page.id] };
  t.sandbox.issueToken({ ...common, value: pageToken, type: 'page', subjectId: page.id, userId: user.id, scopes, ttlSeconds: null });
  t.sandbox.issueToken({ ...common, value: userToken, type: 'user', subjectId: user.id, userId: user.id, scopes, ttlSeconds: 60 * 86_400 });
  const { sealer, store, clock } = t.runtime.deps;
  const id = newId('account');
  const now = clock.now();
  await store.db
    .insertInto('accounts')
    .values({
      id,
      organization_id: organizationId,
      platform: 'facebook',
      platform_user_id: page.id,
      username: null,
      display_name: page.name,
      avatar_url: null,
      external_id: null,
      status: 'active',
      approval_required: 0,
      access_token_enc: sealer.seal(pageToken),
      refresh_token_enc: null,
      token_expires_at: null,
      scopes: scopes.join(','),
      metadata: JSON.stringify({ login: 'facebook', category: page.category, tasks: page.tasks }),
      connected_at: now,
      updated_at: now,
    })
    .execute();
  if (options.userToken !== false) {
    await store.db
      .insertInto('account_user_tokens')
      .values({ account_id: id, organization_id: organizationId, token_enc: sealer.seal(userToken), expires_at: now + 60 * 86_400_000, scopes: scopes.join(','), updated_at: now })
      .execute();
  }
  return { id, pageId: page.id, userId: user.id, adAccountId: adAccount.id, userToken };
}
