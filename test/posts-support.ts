// Shared by the posts suites: the service in sandbox mode on a known port (the in-process
// sandbox needs a real address), accounts inserted directly with a token the sandbox issued
// (the connect flow has its own suites), media files on loopback, and small request helpers.
import assert from 'node:assert/strict';
import type { Clock } from '../src/lib/clock.ts';
import type { SandboxState } from '../src/sandbox/index.ts';
import { newId } from '../src/lib/ids.ts';
import { startConnectApp } from './harness/connect.ts';
import type { StartOptions, TestApp } from './harness/app.ts';
import type { Dialect } from './harness/databases.ts';
import { waitFor } from './harness/wait.ts';
import { spawnCli, type Spawned } from './harness/cli.ts';

export type PostsApp = TestApp & { sandbox: SandboxState };

export interface ApiPost {
  id: string;
  content: string;
  status: string;
  scheduledFor: string | null;
  targets: Array<{ id: string; accountId: string; platform: string; status: string; platformPostId: string | null; url: string | null; error: string | null; attempts: number; warnings: Array<{ key: string; message: string }> }>;
}

export const json = { 'content-type': 'application/json' };

export async function startPostsApp(dialect: Dialect, options: StartOptions = {}): Promise<PostsApp> {
  const t = await startConnectApp(dialect, { worker: true, ...options });
  // Platform processing in sandbox time: short, so delivery tests do not wait seconds.
  t.sandbox.updateSettings({ processing: { threadsMediaMs: 100, tiktokMs: 100 }, limits: { tiktokInitPerMinute: 1000, tiktokStatusPerMinute: 1000 } });
  return t;
}

const SCOPES: Record<string, string[]> = {
  reddit: ['identity', 'submit', 'read', 'history', 'edit', 'flair'],
  threads: ['threads_basic', 'threads_content_publish', 'threads_manage_replies', 'threads_read_replies', 'threads_delete'],
  tiktok: ['user.info.basic', 'video.publish', 'video.list', 'video.upload'],
};

/** A new sandbox person per account, so an organization may hold several of one platform. */
function sandboxUser(sandbox: SandboxState, platform: string, tiktok: TikTokOptions): { id: string; username: string } {
  if (platform === 'reddit') {
    const user = sandbox.addRedditUser();
    return { id: user.id, username: user.name };
  }
  if (platform === 'threads') return sandbox.addThreadsUser();
  if (platform === 'tiktok') return sandbox.addTikTokCreator(tiktok);
  return { id: `${platform}-${newId('account').slice(-8)}`, username: `${platform}_user` };
}

type TikTokOptions = Parameters<SandboxState['addTikTokCreator']>[0];

/** An account of `platform` for the organization, with a live sandbox token. */
export async function addAccount(t: PostsApp, organizationId: string, platform: string, options: { approval?: boolean; status?: 'active' | 'needs_reconnect'; tiktok?: TikTokOptions } = {}): Promise<{ id: string; token: string; userId: string }> {
  const { sealer, store, clock } = t.runtime.deps;
  const user = sandboxUser(t.sandbox, platform, options.tiktok ?? {});
  const token = `${platform}-token-${newId('account').slice(4)}`;
  if (platform === 'reddit' || platform === 'threads' || platform === 'tiktok') {
    t.sandbox.issueToken({ value: token, platform, type: 'user', clientId: `${platform}-client`, subjectId: user.id, userId: user.id, scopes: SCOPES[platform] ?? [], declined: [], pageIds: [], ttlSeconds: 86_400, longLived: true });
  }
  const id = newId('account');
  const now = clock.now();
  await store.db
    .insertInto('accounts')
    .values({
      id,
      organization_id: organizationId,
      platform,
      platform_user_id: user.id,
      username: user.username,
      display_name: null,
      avatar_url: null,
      external_id: id,
      status: options.status ?? 'active',
      approval_required: options.approval ? 1 : 0,
      access_token_enc: sealer.seal(token),
      refresh_token_enc: null,
      token_expires_at: null,
      scopes: (SCOPES[platform] ?? []).join(' '),
      metadata: '{}',
      connected_at: now,
      updated_at: now,
    })
    .execute();
  return { id, token, userId: user.id };
}

export async function createPost(t: PostsApp, key: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: { post: ApiPost; error?: { message: string; code?: string } } & Record<string, unknown> }> {
  const res = await t.request('/api/v1/posts', { key, method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { post: ApiPost } };
}

export async function getPost(t: PostsApp, key: string, id: string): Promise<ApiPost> {
  const res = await t.request(`/api/v1/posts/${id}`, { key });
  if (res.status !== 200) throw new Error(`GET /posts/${id} answered ${res.status}`);
  return ((await res.json()) as { post: ApiPost }).post;
}

/** Waits until the post reaches one of `statuses`. */
export async function settled(t: PostsApp, key: string, id: string, statuses = ['published', 'failed', 'partial'], timeoutMs = 10_000): Promise<ApiPost> {
  let last: ApiPost | null = null;
  try {
    return await waitFor(async () => {
      last = await getPost(t, key, id);
      return statuses.includes(last.status) ? last : null;
    }, timeoutMs, `post ${id} to become ${statuses.join('|')}`, 30);
  } catch (error) {
    throw new Error(`${(error as Error).message}; last seen: ${JSON.stringify(last)}`, { cause: error });
  }
}

/**
 * A `socialapi worker` process on the app's database and data folder, calling the app's sandbox
 * over HTTP; `env` adds or overrides settings. It joins `running` at once (for the suite to stop),
 * and resolves once the worker has started.
 */
export async function startWorkerProcess(t: PostsApp, running: Spawned[], env: Record<string, string> = {}): Promise<Spawned> {
  const worker = spawnCli(['worker'], {
    DATABASE_URL: t.database.url,
    DATA_DIR: t.database.dataDir,
    SANDBOX: '1',
    PUBLIC_BASE_URL: t.config.publicBaseUrl,
    PLATFORM_API_BASE: `${t.url}/sandbox`,
    JOB_POLL_INTERVAL_MS: '100',
    LOG_LEVEL: 'info',
    ...env,
  });
  running.push(worker);
  await worker.waitFor(/worker started/, 20_000);
  return worker;
}


/** Real time plus an offset a test moves forward, so retries hours apart run at once. */
export class ShiftClock implements Clock {
  offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
}

/**
 * The helpers of the suites that lose a platform's answer and check what the retry does
 * (posts-reconcile, posts-look-back). `app` and `apiKey` are read when a helper runs: the
 * suites set them in `before`.
 */
export function lostAnswerTools(app: () => PostsApp, apiKey: () => string) {
  const targetRow = (id: string) => app().runtime.deps.store.db.selectFrom('post_targets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return {
    sandboxUrl: (host: string, path: string) => `${app().url}/sandbox/${host}${path}`,
    targetRow,
    mark: () => app().sandbox.journal.list().at(-1)?.seq ?? 0,
    calls: (host: string, after: number, method: string, path: RegExp) => app().sandbox.journal.list({ host, after }).filter((e) => e.method === method && path.test(e.path)),
    publishNow: async (content: string, platforms: unknown[]): Promise<{ postId: string; targetId: string }> => {
      const res = await createPost(app(), apiKey(), { content, publishNow: true, platforms });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return { postId: res.body.post.id, targetId: res.body.post.targets[0]?.id ?? '' };
    },
    /** Waits for the first attempt (its answer lost) to end waiting for a retry. */
    firstFailure: (targetId: string) =>
      waitFor(async () => {
        const r = await targetRow(targetId);
        return r.status === 'pending' && r.attempts === 1 && r.next_attempt_at !== null ? r : null;
      }, 10_000, 'the first attempt to fail'),
  };
}
