// Shared by the analytics suites: accounts of every platform with a sandbox token that carries
// the insights permissions (or, with `noInsights`, lacks them), a clock that runs with real time
// and can be moved forward (publishing needs time to pass; snapshots need hours to), and small
// request helpers.
import { insertAccount } from './harness/sandbox-accounts.ts';
import { sandboxApp } from '../src/platforms/registry.ts';
import { newId } from '../src/lib/ids.ts';
import type { Clock } from '../src/lib/clock.ts';
import type { PostsApp } from './posts-support.ts';

/** Real time plus an offset the test moves forward. */
export class OffsetClock implements Clock {
  #offset = 0;
  now(): number {
    return Date.now() + this.#offset;
  }
  advance(ms: number): void {
    this.#offset += ms;
  }
}

const SCOPES: Record<string, string[]> = {
  facebook: ['pages_show_list', 'pages_manage_posts', 'pages_read_engagement', 'pages_manage_engagement', 'read_insights', 'instagram_basic', 'instagram_content_publish', 'instagram_manage_insights'],
  threads: ['threads_basic', 'threads_content_publish', 'threads_manage_insights'],
  tiktok: ['user.info.basic', 'user.info.stats', 'video.publish', 'video.list'],
  reddit: ['identity', 'submit', 'read'],
};
const WITHOUT_INSIGHTS = new Set(['read_insights', 'instagram_manage_insights', 'threads_manage_insights', 'user.info.stats', 'video.list']);

export interface InsightsAccount {
  id: string;
  /** The Page id, Instagram account id, Threads user id, TikTok creator id or reddit user id. */
  platformUserId: string;
  token: string;
}

export interface AccountOptions {
  followers?: number;
  noInsights?: boolean;
  status?: 'active' | 'needs_reconnect';
  /** tiktok: a public creator the audited app may post to publicly. */
  publicTikTok?: boolean;
}

export async function addInsightsAccount(t: PostsApp, organizationId: string, platform: 'instagram' | 'facebook' | 'threads' | 'tiktok' | 'reddit', options: AccountOptions = {}): Promise<InsightsAccount> {
  const family = platform === 'instagram' ? 'facebook' : platform;
  const scopes = (SCOPES[family] ?? []).filter((s) => !options.noInsights || !WITHOUT_INSIGHTS.has(s));
  const token = `${platform}-insights-${newId('account').slice(4)}`;
  let platformUserId: string;
  let username: string | null;
  let metadata: Record<string, unknown> = {};
  if (platform === 'instagram' || platform === 'facebook') {
    const { user, pages, instagram } = t.sandbox.addFacebookUser({ pages: [{ instagram: { followersCount: options.followers ?? 1200 } }] });
    const page = pages[0];
    const ig = instagram[0];
    if (!page || !ig) throw new Error('the sandbox made no Page');
    t.sandbox.issueToken({ value: token, platform: 'facebook', type: 'page', clientId: sandboxApp('meta').clientId, subjectId: page.id, userId: user.id, scopes, declined: [], pageIds: [page.id], ttlSeconds: null, longLived: true });
    platformUserId = platform === 'facebook' ? page.id : ig.id;
    username = platform === 'facebook' ? null : ig.username;
    metadata = platform === 'facebook' ? { login: 'facebook', tasks: page.tasks } : { login: 'facebook', pageId: page.id };
  } else {
    const user =
      platform === 'threads'
        ? t.sandbox.addThreadsUser({ followersCount: options.followers ?? 150 })
        : platform === 'tiktok'
          ? t.sandbox.addTikTokCreator(options.publicTikTok ? { privateAccount: false, privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'SELF_ONLY'], followerCount: options.followers ?? 300 } : { followerCount: options.followers ?? 300 })
          : t.sandbox.addRedditUser();
    platformUserId = user.id;
    username = 'username' in user ? user.username : user.name;
    t.sandbox.issueToken({ value: token, platform, type: 'user', clientId: `${platform}-client`, subjectId: user.id, userId: user.id, scopes, declined: [], pageIds: [], ttlSeconds: 86_400, longLived: true });
  }
  const { sealer, store, clock } = t.runtime.deps;
  const id = await insertAccount(store.db, sealer, { organizationId, platform, platformUserId, username, token, scopes, metadata, now: clock.now(), status: options.status ?? 'active' });
  return { id, platformUserId, token };
}
