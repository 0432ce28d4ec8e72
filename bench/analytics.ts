// Analytics benchmark (issue 17, point 8), on the real server (`socialapi serve --no-worker`, a
// process of its own): GET /api/v1/analytics/best-time for an account with 10,000 published
// targets over the last 90 days, each with the snapshots the sweep would have left (1h, 24h and
// 7d; the newest marked latest), a few without one yet. Requests are sent one at a time (one
// connection), so the figures are the operation's own latency, not a queue's; then with 8
// connections for the throughput. Target: p99 under 50 ms on SQLite.
//
//   node bench/analytics.ts [--postgres URL] [--targets N] [--duration S] [--warmup S]
//
// It prints the figures against the target (met / not met) and asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseConfig } from '../src/config.ts';
import type { SnapshotStage } from '../src/db/schema.ts';
import { createSealer, resolveEncryptionKey } from '../src/lib/crypto.ts';
import { newId } from '../src/lib/ids.ts';
import { openMigratedStore } from '../src/runtime.ts';
import { combine, measure, type LoadResult } from './load.ts';
import { createBenchSchema } from './postgres.ts';
import { createKey, freePort, startServer } from './server.ts';

export const TARGET_P99_MS = 50;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const BATCH = 500;

export interface AnalyticsBenchOptions {
  postgresUrl: string | null;
  targets: number;
  duration: number;
  warmup: number;
}

export const DEFAULT_OPTIONS: AnalyticsBenchOptions = { postgresUrl: null, targets: 10_000, duration: 10, warmup: 3 };

export interface AnalyticsStoreResult {
  store: string;
  seedSeconds: number;
  basis: string;
  posts: number;
  single: LoadResult;
  parallel: LoadResult;
}

/** A deterministic spread of publishing times and engagements (the same on every run). */
function* history(count: number, now: number): Generator<{ at: number; engagement: number[] }> {
  let seed = 7;
  const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (let i = 0; i < count; i++) {
    const at = now - Math.floor(next() * 89 * DAY_MS) - HOUR_MS;
    const base = Math.floor(next() * 200);
    // Every 50th target has no snapshot yet; the rest have one to three stages, growing.
    const stages = i % 50 === 0 ? 0 : 1 + (i % 3);
    yield { at, engagement: Array.from({ length: stages }, (_, s) => base * (s + 1)) };
  }
}

export async function seed(env: Record<string, string>, organizationId: string, targets: number): Promise<string> {
  const config = parseConfig(env);
  const sealer = createSealer(resolveEncryptionKey(config.encryptionKey, config.dataDir).key);
  const store = await openMigratedStore(config);
  const now = Date.now();
  const accountId = newId('account', now);
  const stagesOf: SnapshotStage[] = ['1h', '24h', '7d'];
  try {
    await store.db.insertInto('accounts').values({
      id: accountId, organization_id: organizationId, platform: 'reddit', platform_user_id: 'bench-user', username: 'bench', display_name: null, avatar_url: null,
      external_id: null, status: 'active', approval_required: 0, access_token_enc: sealer.seal('reddit-bench-token'), refresh_token_enc: null, token_expires_at: null,
      scopes: 'identity submit read', metadata: '{}', connected_at: now, updated_at: now,
    }).execute();
    const rows = [...history(targets, now)];
    for (let start = 0; start < rows.length; start += BATCH) {
      const batch = rows.slice(start, start + BATCH).map((row) => ({ ...row, postId: newId('post', row.at), targetId: newId('target', row.at) }));
      await store.db.transaction().execute(async (trx) => {
        await trx.insertInto('posts').values(batch.map((r) => ({ id: r.postId, organization_id: organizationId, content: 'bench', status: 'published' as const, scheduled_for: null, approved_at: null, rejected_reason: null, api_key_id: null, created_at: r.at, updated_at: r.at }))).execute();
        await trx.insertInto('post_targets').values(batch.map((r) => ({
          id: r.targetId, post_id: r.postId, organization_id: organizationId, position: 0, account_id: accountId, platform: 'reddit', input: '{}', options: '{}', warnings: '[]',
          status: 'published' as const, attempts: 1, next_attempt_at: null, released_next: 1 as const, progress: '{}', platform_post_id: `t3_${r.targetId.slice(-8)}`, url: null, error: null,
          published_at: r.at, updated_at: r.at,
        }))).execute();
        const snapshots = batch.flatMap((r) => r.engagement.map((engagement, s) => ({
          target_id: r.targetId, stage: stagesOf[s] ?? 'refresh', organization_id: organizationId, account_id: accountId, published_at: r.at, taken_at: r.at + (s + 1) * HOUR_MS,
          metrics: JSON.stringify({ likes: engagement }), unsupported: '[]', errors: '[]', engagement, latest: s === r.engagement.length - 1 ? (1 as const) : (0 as const),
        })));
        if (snapshots.length) await trx.insertInto('analytics_snapshots').values(snapshots).execute();
      });
    }
    return accountId;
  } finally {
    await store.close();
  }
}

interface NewDatabase {
  (dataDir: string): Promise<{ url: string; drop(): Promise<void> }>;
}

async function benchStore(store: string, newDatabase: NewDatabase, options: AnalyticsBenchOptions): Promise<AnalyticsStoreResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'socialapi-bench-analytics-'));
  const database = await newDatabase(dataDir);
  const env = { DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: database.url, REDIS_URL: '', SANDBOX: '1' };
  process.stdout.write(`\n[${store}] analytics: starting the server, seeding ${options.targets.toLocaleString('en-US')} published targets\n`);
  const server = await startServer(env, 30_000, false);
  try {
    const started = performance.now();
    const accountId = await seed(env, server.organizationId, options.targets);
    const seedSeconds = (performance.now() - started) / 1000;
    const key = await createKey(env, server.organizationId, 1_000_000_000);
    const url = `${server.baseUrl}/api/v1/analytics/best-time?accountId=${accountId}`;
    const headers = { authorization: `Bearer ${key}` };
    const first = await fetch(url, { headers });
    const body = (await first.json()) as { basis?: string; posts?: number };
    if (first.status !== 200) throw new Error(`best-time answered ${first.status}: ${JSON.stringify(body).slice(0, 300)}`);
    await measure(url, headers, { connections: 1, duration: options.warmup });
    const single = combine([await measure(url, headers, { connections: 1, duration: options.duration })]);
    const parallel = combine([await measure(url, headers, { connections: 8, duration: options.duration })]);
    return { store, seedSeconds, basis: body.basis ?? '?', posts: body.posts ?? 0, single, parallel };
  } catch (error) {
    process.stderr.write(`analytics bench failed; the server's last output:\n${server.output().slice(-3000)}\n`);
    throw error;
  } finally {
    await server.stop();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchAnalytics(options: AnalyticsBenchOptions = DEFAULT_OPTIONS): Promise<AnalyticsStoreResult[]> {
  const sqlite: NewDatabase = (dataDir) => Promise.resolve({ url: `sqlite:${join(dataDir, 'socialapi.db')}`, drop: () => Promise.resolve() });
  const results = [await benchStore('SQLite', sqlite, options)];
  const postgresUrl = options.postgresUrl;
  if (postgresUrl) results.push(await benchStore('PostgreSQL', () => createBenchSchema(postgresUrl), options));
  return results;
}

export function formatAnalyticsResult(results: AnalyticsStoreResult[], options: AnalyticsBenchOptions): string[] {
  const out = ['', `Analytics benchmark: GET /analytics/best-time over ${options.targets.toLocaleString('en-US')} published targets (serve --no-worker)`];
  for (const r of results) {
    const verdict = r.store !== 'SQLite' ? 'set for SQLite' : r.single.p99 < TARGET_P99_MS ? 'met' : 'NOT met';
    out.push(`[${r.store}] seeded in ${r.seedSeconds.toFixed(1)} s; the answer rests on ${r.posts.toLocaleString('en-US')} posts (basis ${r.basis})`);
    out.push(`  1 connection:  ${Math.round(r.single.rps)} req/s, p50 ${r.single.p50.toFixed(1)} ms, p99 ${r.single.p99.toFixed(1)} ms (target p99 < ${TARGET_P99_MS} ms: ${verdict})${r.single.non2xx ? `, ${r.single.non2xx} non-2xx` : ''}`);
    out.push(`  8 connections: ${Math.round(r.parallel.rps)} req/s, p50 ${r.parallel.p50.toFixed(1)} ms, p99 ${r.parallel.p99.toFixed(1)} ms${r.parallel.non2xx ? `, ${r.parallel.non2xx} non-2xx` : ''}`);
  }
  return out;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { postgres: { type: 'string' }, targets: { type: 'string' }, duration: { type: 'string' }, warmup: { type: 'string' } }, strict: true });
  const options: AnalyticsBenchOptions = {
    postgresUrl: values.postgres ?? process.env.BENCH_DATABASE_URL ?? null,
    targets: values.targets ? Number(values.targets) : DEFAULT_OPTIONS.targets,
    duration: values.duration ? Number(values.duration) : DEFAULT_OPTIONS.duration,
    warmup: values.warmup ? Number(values.warmup) : DEFAULT_OPTIONS.warmup,
  };
  process.stdout.write(`${formatAnalyticsResult(await benchAnalytics(options), options).join('\n')}\n`);
}
