// An account connected without the connect flow: a fresh sandbox person (or Page) with a token the
// sandbox issued, inserted as the flow would have stored it. For benches and multi-process tests
// that need many accounts fast; the connect flow itself has its own tests.
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import type { Sealer } from '../../src/lib/crypto.ts';
import { newId } from '../../src/lib/ids.ts';
import { sandboxApp } from '../../src/platforms/registry.ts';
import type { SandboxState } from '../../src/sandbox/index.ts';

export type SeededPlatform = 'reddit' | 'threads' | 'facebook';

/** The publishing scopes each platform's connect flow asks for. */
export const PUBLISHING_SCOPES: Record<SeededPlatform, string[]> = {
  reddit: ['identity', 'submit', 'read', 'history', 'edit', 'flair'],
  threads: ['threads_basic', 'threads_content_publish', 'threads_manage_replies', 'threads_read_replies', 'threads_delete'],
  facebook: ['pages_show_list', 'pages_manage_posts', 'pages_read_engagement', 'pages_manage_engagement'],
};

export async function seedSandboxAccount(db: Kysely<Database>, sealer: Sealer, state: SandboxState, organizationId: string, platform: SeededPlatform, now = Date.now()): Promise<string> {
  const token = `${platform}-seeded-${newId('account').slice(4)}`;
  const scopes = PUBLISHING_SCOPES[platform];
  let userId: string;
  let username: string | null = null;
  let metadata: Record<string, unknown> = {};
  if (platform === 'facebook') {
    const { user, pages } = state.addFacebookUser({ pages: [{}] });
    const page = pages[0];
    if (!page) throw new Error('the sandbox made no Page');
    state.issueToken({ value: token, platform, type: 'page', clientId: sandboxApp('meta').clientId, subjectId: page.id, userId: user.id, scopes, declined: [], pageIds: [page.id], ttlSeconds: null, longLived: true });
    userId = page.id;
    metadata = { login: 'facebook', category: page.category, tasks: page.tasks };
  } else {
    const user = platform === 'reddit' ? (({ id, name }) => ({ id, username: name }))(state.addRedditUser()) : state.addThreadsUser();
    userId = user.id;
    username = user.username;
    state.issueToken({ value: token, platform, type: 'user', clientId: `${platform}-client`, subjectId: user.id, userId: user.id, scopes, declined: [], pageIds: [], ttlSeconds: 86_400 * 30, longLived: true });
  }
  return insertAccount(db, sealer, { organizationId, platform, platformUserId: userId, username, token, scopes, metadata, now });
}

export interface NewAccount {
  organizationId: string;
  platform: string;
  platformUserId: string;
  token: string;
  scopes: string[];
  metadata: Record<string, unknown>;
  now: number;
  username?: string | null;
  displayName?: string | null;
  externalId?: string | null;
  status?: 'active' | 'needs_reconnect';
  approvalRequired?: boolean;
}

/** The account row the connect flow would store for a token the sandbox issued; its id. */
export async function insertAccount(db: Kysely<Database>, sealer: Sealer, account: NewAccount): Promise<string> {
  const id = newId('account');
  await db
    .insertInto('accounts')
    .values({
      id,
      organization_id: account.organizationId,
      platform: account.platform,
      platform_user_id: account.platformUserId,
      username: account.username ?? null,
      display_name: account.displayName ?? null,
      avatar_url: null,
      external_id: account.externalId ?? null,
      status: account.status ?? 'active',
      approval_required: account.approvalRequired ? 1 : 0,
      access_token_enc: sealer.seal(account.token),
      refresh_token_enc: null,
      token_expires_at: null,
      scopes: account.scopes.join(' '),
      metadata: JSON.stringify(account.metadata),
      connected_at: account.now,
      updated_at: account.now,
    })
    .execute();
  return id;
}
