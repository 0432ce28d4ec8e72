// Dashboard benchmark (issue 19, point 6), on the real server (`socialapi serve --no-worker`, a
// process of its own): GET /dashboard/approvals, the first page of the queue, signed in, with
// 10,000 posts held for approval (two targets each, with options and warnings, as a client's
// posts would have). Requests go one at a time (one connection), so the figures are the page's
// own latency, then with 8 connections for the throughput. Target: p99 under 50 ms on SQLite.
//
//   node bench/dashboard.ts [--postgres URL] [--posts N] [--duration S] [--warmup S]
//
// It prints the figures against the target (met / not met) and asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseConfig } from '../src/config.ts';
import { newId } from '../src/lib/ids.ts';
import { createSignInLink } from '../src/modules/dashboard/index.ts';
import { openMigratedStore } from '../src/runtime.ts';
import { combine, measure, type LoadResult } from './load.ts';
import { createBenchSchema } from './postgres.ts';
import { freePort, startServer } from './server.ts';

export const TARGET_P99_MS = 50;
const BATCH = 250;

export interface DashboardBenchOptions {
  postgresUrl: string | null;
  posts: number;
  duration: number;
  warmup: number;
}

export const DEFAULT_OPTIONS: DashboardBenchOptions = { postgresUrl: null, posts: 10_000, duration: 10, warmup: 3 };

export interface DashboardStoreResult {
  store: string;
  seedSeconds: number;
  pageBytes: number;
  single: LoadResult;
  parallel: LoadResult;
}

function account(organizationId: string, platform: string, now: number) {
  return {
    id: newId('account', now), organization_id: organizationId, platform, platform_user_id: `bench-${platform}`, username: `bench_${platform}`, display_name: null, avatar_url: null,
    external_id: null, status: 'active' as const, approval_required: 0 as const, access_token_enc: null, refresh_token_enc: null, token_expires_at: null, scopes: '', metadata: '{}',
    connected_at: now, updated_at: now,
  };
}

/** 10,000 held posts, each to a reddit and an instagram account; returns the session cookie. */
async function seed(env: Record<string, string>, organizationId: string, count: number, baseUrl: string): Promise<string> {
  const store = await openMigratedStore(parseConfig(env));
  try {
    const now = Date.now();
    const reddit = account(organizationId, 'reddit', now);
    const instagram = account(organizationId, 'instagram', now);
    await store.db.insertInto('accounts').values([reddit, instagram]).execute();
    for (let start = 0; start < count; start += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => {
        const at = now - (count - start - i) * 1000;
        return { postId: newId('post', at), at, n: start + i };
      });
      await store.db.transaction().execute(async (trx) => {
        await trx.insertInto('posts').values(batch.map((p) => ({
          id: p.postId, organization_id: organizationId, content: `Post ${p.n}: our spring collection is live. Free shipping this week, see the link in bio! #spring #sale`,
          status: 'pending_approval' as const, scheduled_for: p.n % 3 === 0 ? now + 86_400_000 : null, approved_at: null, rejected_reason: null, api_key_id: null, created_at: p.at, updated_at: p.at,
        }))).execute();
        await trx.insertInto('post_targets').values(batch.flatMap((p) => [
          { account: reddit, position: 0, options: { subreddit: 'sandbox', title: `Spring collection ${p.n}` }, warnings: [] },
          { account: instagram, position: 1, options: { mediaUrls: [`https://cdn.example.com/media/${p.n}.jpg`] }, warnings: [{ key: 'title', message: 'instagram has no titles; ignored' }] },
        ].map((t) => ({
          id: newId('target', p.at), post_id: p.postId, organization_id: organizationId, position: t.position, account_id: t.account.id, platform: t.account.platform,
          input: JSON.stringify(t.options), options: JSON.stringify(t.options), warnings: JSON.stringify(t.warnings), status: 'pending' as const, attempts: 0, next_attempt_at: null,
          released_next: 0 as const, progress: '{}', platform_post_id: null, url: null, error: null, published_at: null, updated_at: p.at,
        })))).execute();
      });
    }
    const { token } = await createSignInLink(store.db, Date.now(), organizationId, 'bench@example.com');
    const signedIn = await fetch(`${baseUrl}/dashboard/login/${token}`, { redirect: 'manual' });
    const cookie = signedIn.headers.get('set-cookie')?.split(';')[0];
    if (signedIn.status !== 303 || !cookie) throw new Error(`the sign-in link answered ${signedIn.status}`);
    return cookie;
  } finally {
    await store.close();
  }
}

interface NewDatabase {
  (dataDir: string): Promise<{ url: string; drop(): Promise<void> }>;
}

async function benchStore(store: string, newDatabase: NewDatabase, options: DashboardBenchOptions): Promise<DashboardStoreResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'socialapi-bench-dashboard-'));
  const database = await newDatabase(dataDir);
  const env = { DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: database.url, REDIS_URL: '', SANDBOX: '1' };
  process.stdout.write(`\n[${store}] dashboard: starting the server, seeding ${options.posts.toLocaleString('en-US')} held posts\n`);
  const server = await startServer(env, 30_000, false);
  try {
    const started = performance.now();
    const cookie = await seed(env, server.organizationId, options.posts, server.baseUrl);
    const seedSeconds = (performance.now() - started) / 1000;
    const url = `${server.baseUrl}/dashboard/approvals`;
    const headers = { cookie };
    const first = await fetch(url, { headers, redirect: 'manual' });
    const text = await first.text();
    if (first.status !== 200 || !text.includes('Approve')) throw new Error(`the approvals page answered ${first.status}: ${text.slice(0, 300)}`);
    await measure(url, headers, { connections: 1, duration: options.warmup });
    const single = combine([await measure(url, headers, { connections: 1, duration: options.duration })]);
    const parallel = combine([await measure(url, headers, { connections: 8, duration: options.duration })]);
    return { store, seedSeconds, pageBytes: Buffer.byteLength(text), single, parallel };
  } catch (error) {
    process.stderr.write(`dashboard bench failed; the server's last output:\n${server.output().slice(-3000)}\n`);
    throw error;
  } finally {
    await server.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchDashboard(options: DashboardBenchOptions = DEFAULT_OPTIONS): Promise<DashboardStoreResult[]> {
  const sqlite: NewDatabase = (dataDir) => Promise.resolve({ url: `sqlite:${join(dataDir, 'socialapi.db')}`, drop: () => Promise.resolve() });
  const results = [await benchStore('SQLite', sqlite, options)];
  const postgresUrl = options.postgresUrl;
  if (postgresUrl) results.push(await benchStore('PostgreSQL', () => createBenchSchema(postgresUrl), options));
  return results;
}

export function formatDashboardResult(results: DashboardStoreResult[], options: DashboardBenchOptions): string[] {
  const out = ['', `Dashboard benchmark: GET /dashboard/approvals (first page of 20) with ${options.posts.toLocaleString('en-US')} held posts (serve --no-worker)`];
  for (const r of results) {
    const verdict = r.store !== 'SQLite' ? 'set for SQLite' : r.single.p99 < TARGET_P99_MS ? 'met' : 'NOT met';
    out.push(`[${r.store}] seeded in ${r.seedSeconds.toFixed(1)} s; the page is ${(r.pageBytes / 1024).toFixed(0)} KiB`);
    out.push(`  1 connection:  ${Math.round(r.single.rps)} req/s, p50 ${r.single.p50.toFixed(1)} ms, p99 ${r.single.p99.toFixed(1)} ms (target p99 < ${TARGET_P99_MS} ms: ${verdict})${r.single.non2xx ? `, ${r.single.non2xx} non-2xx` : ''}`);
    out.push(`  8 connections: ${Math.round(r.parallel.rps)} req/s, p50 ${r.parallel.p50.toFixed(1)} ms, p99 ${r.parallel.p99.toFixed(1)} ms${r.parallel.non2xx ? `, ${r.parallel.non2xx} non-2xx` : ''}`);
  }
  return out;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { postgres: { type: 'string' }, posts: { type: 'string' }, duration: { type: 'string' }, warmup: { type: 'string' } }, strict: true });
  const options: DashboardBenchOptions = {
    postgresUrl: values.postgres ?? process.env.BENCH_DATABASE_URL ?? null,
    posts: values.posts ? Number(values.posts) : DEFAULT_OPTIONS.posts,
    duration: values.duration ? Number(values.duration) : DEFAULT_OPTIONS.duration,
    warmup: values.warmup ? Number(values.warmup) : DEFAULT_OPTIONS.warmup,
  };
  process.stdout.write(`${formatDashboardResult(await benchDashboard(options), options).join('\n')}\n`);
}
