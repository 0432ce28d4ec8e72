// Shared by the instagram, facebook and published-post suites: Meta accounts inserted directly
// with tokens the sandbox issued, as the connect flows would have stored them. Each account is a
// new sandbox Facebook user with one Page and its linked Instagram account, so tests never share
// a Page, a quota or a duplicate-post check.
import { sandboxApp } from '../src/platforms/registry.ts';
import { newId } from '../src/lib/ids.ts';
import type { PostsApp } from './posts-support.ts';

const FB_SCOPES = [
  'pages_show_list', 'pages_manage_posts', 'pages_read_engagement', 'pages_manage_engagement', 'pages_read_user_content', 'pages_manage_metadata',
  'instagram_basic', 'instagram_content_publish', 'instagram_manage_comments',
];
const IG_SCOPES = ['instagram_business_basic', 'instagram_business_content_publish', 'instagram_business_manage_comments'];

export interface MetaAccountOptions {
  /** instagram only: which login the account was connected with (default facebook). */
  login?: 'facebook' | 'instagram';
  approval?: boolean;
  status?: 'active' | 'needs_reconnect';
  /** The permissions the token and the account row carry, instead of every one the features need. */
  scopes?: string[];
}

export interface MetaAccount {
  id: string;
  token: string;
  /** The Page id (facebook) or the Instagram account id (instagram). */
  platformUserId: string;
  pageId: string;
}

export async function addMetaAccount(t: PostsApp, organizationId: string, platform: 'facebook' | 'instagram', options: MetaAccountOptions = {}): Promise<MetaAccount> {
  const { user, pages, instagram } = t.sandbox.addFacebookUser({ pages: [{ instagram: {} }] });
  const page = pages[0];
  const ig = instagram[0];
  if (!page || !ig) throw new Error('the sandbox made no Page');
  const login = platform === 'facebook' ? 'facebook' : (options.login ?? 'facebook');
  const scopes = options.scopes ?? (login === 'instagram' ? IG_SCOPES : FB_SCOPES);
  const token = `${platform}-${login}-token-${newId('account').slice(4)}`;
  const common = { value: token, clientId: login === 'instagram' ? sandboxApp('instagram').clientId : sandboxApp('meta').clientId, declined: [], ttlSeconds: null, longLived: true };
  if (login === 'instagram') {
    t.sandbox.issueToken({ ...common, platform: 'instagram', type: 'user', subjectId: ig.id, userId: ig.id, scopes, pageIds: [] });
  } else {
    // A Page token, as both facebook and instagram-with-Facebook-Login accounts keep.
    t.sandbox.issueToken({ ...common, platform: 'facebook', type: 'page', subjectId: page.id, userId: user.id, scopes, pageIds: [page.id] });
  }
  const { sealer, store, clock } = t.runtime.deps;
  const id = newId('account');
  const now = clock.now();
  const platformUserId = platform === 'facebook' ? page.id : ig.id;
  const metadata = platform === 'facebook' ? { login: 'facebook', category: page.category, tasks: page.tasks } : login === 'facebook' ? { login, pageId: page.id } : { login };
  await store.db
    .insertInto('accounts')
    .values({
      id,
      organization_id: organizationId,
      platform,
      platform_user_id: platformUserId,
      username: platform === 'facebook' ? null : ig.username,
      display_name: platform === 'facebook' ? page.name : ig.name,
      avatar_url: null,
      external_id: null,
      status: options.status ?? 'active',
      approval_required: options.approval ? 1 : 0,
      access_token_enc: sealer.seal(token),
      refresh_token_enc: null,
      token_expires_at: null,
      scopes: scopes.join(','),
      metadata: JSON.stringify(metadata),
      connected_at: now,
      updated_at: now,
    })
    .execute();
  return { id, token, platformUserId, pageId: page.id };
}

/** Sandbox processing in milliseconds of sandbox time: short, so delivery tests are quick. */
export function quickMetaProcessing(t: PostsApp): void {
  t.sandbox.updateSettings({ processing: { instagramImageMs: 50, instagramVideoMs: 100, facebookVideoMs: 100 } });
}
