// Posts benchmarks (issue 6, point 10), on the real server in a process of its own, against the
// platform sandbox served from this process (PLATFORM_API_BASE), so the bench can seed accounts,
// lower or raise the sandbox's limits, add latency, and see the moment each platform request
// arrives:
//
// - `POST /api/v1/posts` (3 targets, publishNow) requests per second and p99, beside the bare
//   `GET /healthz` probe measured on the same server in the same run (`serve --no-worker`, so
//   delivery does not compete with the route);
// - delivery throughput: targets published per second (reddit, threads and facebook text posts
//   falling due together), with no added latency and with LATENCY ms on every platform call;
// - delivery per platform (posts-platforms.ts): each platform's single-target posts due
//   together, the newer platforms judged against the mean of the others;
// - scheduling lag: 200 posts falling due every second for 30 s, p50/p99 from scheduledFor to
//   the post's first platform request; and the time until the last of 5,000 posts due in the
//   same second has started.
//
//   npx node bench/posts.ts [--postgres URL] [--duration S] [--lag-seconds N] [--lag-rate N]
//                           [--burst N] [--delivery-posts N] [--latency-posts N] [--latency MS]
//                           [--platform-posts N] [--only create,delivery,platforms,latency,lag,burst]
//
// It prints the figures against the issue's targets (met / not met) and asserts nothing.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { parseConfig } from '../src/config.ts';
import { newId } from '../src/lib/ids.ts';
import { openRuntime, type Runtime } from '../src/runtime.ts';
import { SandboxState } from '../src/sandbox/index.ts';
import { sandboxPlugin } from '../src/sandbox/plugin.ts';
import { seedSandboxAccount, type SeededPlatform } from '../test/harness/sandbox-accounts.ts';
import { BENCH_SERVER_ENV, benchPlatforms, formatPlatforms, type PlatformDelivery, type UploadFigure } from './posts-platforms.ts';
import { combine, measure, type LoadResult, type Sample } from './load.ts';
import { createBenchSchema } from './postgres.ts';
import { measureBound } from './postgres-bound.ts';
import type { RoundTrips } from './pg-round-trips.ts';
import { createKey, freePort, startServer, type RunningServer } from './server.ts';

export const TARGETS = {
  createsPerSecond: 3000,
  deliveredPerSecond: 500,
  deliveredPerSecondWithLatency: 200,
  lagP99Ms: 500,
  burstMs: 10_000,
};

/** PostgreSQL (issue 21): POST /posts at this share of the raw bound at least … */
export const BOUND_SHARE = 0.5;
/** … and delivery, lag and burst within this factor of SQLite's figures in the same run. */
export const OF_SQLITE = 1.5;

export interface PostsBenchOptions {
  postgresUrl: string | null;
  /** Seconds of POST /posts (and as many of /healthz), after `warmup` seconds of each. */
  duration: number;
  warmup: number;
  connections: number;
  /** Posts of 3 targets for the delivery runs. */
  deliveryPosts: number;
  latencyPosts: number;
  latencyMs: number;
  lagSeconds: number;
  lagRate: number;
  burst: number;
  /** Single-target posts per platform for the per-platform delivery. */
  platformPosts: number;
  /** The parts to run; all by default. */
  only: ReadonlySet<PostsPart>;
}

export const POSTS_PARTS = ['create', 'delivery', 'platforms', 'latency', 'lag', 'burst'] as const;
export type PostsPart = (typeof POSTS_PARTS)[number];

export const DEFAULT_OPTIONS: PostsBenchOptions = {
  postgresUrl: null,
  duration: 10,
  warmup: 3,
  connections: 32,
  deliveryPosts: 1000,
  latencyPosts: 400,
  latencyMs: 300,
  lagSeconds: 30,
  lagRate: 200,
  burst: 5000,
  platformPosts: 500,
  only: new Set(POSTS_PARTS),
};

export interface DeliveryResult {
  targets: number;
  published: number;
  failed: number;
  seconds: number;
  perSecond: number;
  /** Per published target, from the posts' due time to the last outcome (PostgreSQL only). */
  roundTrips: RoundTripsPer | null;
  /** The server's CPU per published target over the same span (µs): moved less by other load than the rate. */
  cpuMicros: number | null;
}

export interface LagResult {
  posts: number;
  started: number;
  p50: number;
  p99: number;
  max: number;
  /** Creating the posts took longer than the lead time: the first were already due. */
  overran: boolean;
  /** The server's CPU per started post, from the end of creation to the last start (µs). */
  cpuMicros: number | null;
  /** Per started post over the same span (PostgreSQL only). */
  roundTrips: RoundTripsPer | null;
}

/** Round trips to PostgreSQL per unit of work, by the statement's first word. */
export interface RoundTripsPer {
  total: number;
  byWord: RoundTrips;
}

/** A part not run is null. */
export interface PostsStoreResult {
  store: string;
  created: { probe: LoadResult; create: LoadResult; bound: LoadResult | null; roundTrips: RoundTripsPer | null } | null;
  delivery: DeliveryResult | null;
  platforms: { platforms: PlatformDelivery[]; upload: UploadFigure | null } | null;
  deliveryLatency: DeliveryResult | null;
  lag: LagResult | null;
  burst: LagResult | null;
}

const log = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const BENCH_RATE_LIMIT = 1_000_000_000;

/** The sandbox in this process, with the arrival time of every reddit submit by its title. */
export interface BenchSandbox {
  url: string;
  state: SandboxState;
  /** title → first arrival (ms, Date.now()). */
  arrivals: Map<string, number>;
  close(): Promise<void>;
}

export async function startBenchSandbox(): Promise<BenchSandbox> {
  const state = new SandboxState();
  state.updateSettings({
    processing: { threadsTextMs: 0 },
    limits: { threadsPosts: 1e9, threadsReplies: 1e9, instagramPosts: 1e9, redditRequestsPerWindow: 1e9, tiktokInitPerMinute: 1e9, tiktokStatusPerMinute: 1e9 },
  });
  const arrivals = new Map<string, number>();
  const app: FastifyInstance = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024 });
  app.addHook('onRequest', (request, _reply, done) => {
    (request as unknown as { arrivedAt: number }).arrivedAt = Date.now();
    done();
  });
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.method === 'POST' && request.url.includes('/oauth.reddit.com/api/submit')) {
      const title = (request.body as Record<string, unknown> | undefined)?.title;
      if (typeof title === 'string' && !arrivals.has(title)) arrivals.set(title, (request as unknown as { arrivedAt: number }).arrivedAt);
    }
    done();
  });
  await app.register(sandboxPlugin, { state, prefix: '' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the sandbox has no address');
  return { url: `http://127.0.0.1:${address.port}`, state, arrivals, close: () => app.close() };
}

export interface Stage {
  databaseUrl: string;
  /** The server's PostgreSQL round trips so far; null on SQLite. */
  roundTrips(): RoundTrips | null;
  server: RunningServer;
  runtime: Runtime;
  key: string;
  accounts: { reddit: string; threads: string; facebook: string };
  stop(): Promise<void>;
}

/** The server (with or without its worker), a key without a practical limit, and 3 accounts. */
/** A fresh database for one server: a SQLite file in its data folder, or a PostgreSQL schema. */
type NewDatabase = (dataDir: string) => Promise<{ url: string; drop(): Promise<void> }>;

async function startStage(sandbox: BenchSandbox, newDatabase: NewDatabase, withWorker: boolean): Promise<Stage> {
  const dataDir = mkdtempSync(join(tmpdir(), 'socialapi-bench-posts-'));
  const database = await newDatabase(dataDir);
  const countsFile = join(dataDir, 'pg-round-trips.json');
  const postgres = database.url.startsWith('postgres');
  const env = {
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: database.url,
    REDIS_URL: '',
    SANDBOX: '1',
    PLATFORM_API_BASE: sandbox.url,
    ...BENCH_SERVER_ENV,
    ...(postgres ? { NODE_OPTIONS: `--import ${COUNTER}`, BENCH_PG_ROUND_TRIPS: countsFile } : {}),
  };
  const server = await startServer(env, 30_000, withWorker);
  const runtime = await openRuntime(parseConfig(env));
  const key = await createKey(env, server.organizationId, BENCH_RATE_LIMIT);
  const accounts = {
    reddit: await addAccount(sandbox.state, runtime, server.organizationId, 'reddit'),
    threads: await addAccount(sandbox.state, runtime, server.organizationId, 'threads'),
    facebook: await addAccount(sandbox.state, runtime, server.organizationId, 'facebook'),
  };
  return {
    databaseUrl: database.url,
    roundTrips: () => (postgres ? readCounts(countsFile) : null),
    server,
    runtime,
    key,
    accounts,
    async stop() {
      await runtime.close();
      await server.stop();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const COUNTER = fileURLToPath(new URL('./pg-round-trips.ts', import.meta.url));

function readCounts(file: string): RoundTrips {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as RoundTrips;
  } catch {
    return {}; // nothing counted yet
  }
}

/** The round trips between two readings, per unit of work. */
function roundTripsPer(before: RoundTrips | null, after: RoundTrips | null, units: number): RoundTripsPer | null {
  if (!before || !after || units <= 0) return null;
  const byWord: RoundTrips = {};
  let total = 0;
  for (const [word, n] of Object.entries(after)) {
    const delta = n - (before[word] ?? 0);
    if (delta <= 0) continue;
    byWord[word] = delta / units;
    total += delta;
  }
  return { total: total / units, byWord };
}

/** Lets the server's counter write its last counts (it does so every 100 ms). */
const settled = () => sleep(250);

/** An account with a token the sandbox issued, inserted as a connect flow would have stored it. */
export function addAccount(state: SandboxState, runtime: Runtime, organizationId: string, platform: SeededPlatform): Promise<string> {
  const { sealer, store, clock } = runtime.deps;
  return seedSandboxAccount(store.db, sealer, state, organizationId, platform, clock.now());
}

const threeTargets = (stage: Stage) => [
  { accountId: stage.accounts.reddit, platformSpecificData: { subreddit: 'sandbox' } },
  { accountId: stage.accounts.threads },
  { accountId: stage.accounts.facebook },
];

/** POST /posts under load with autocannon (bench/load.ts measures GETs only). */
function measurePost(url: string, headers: Record<string, string>, body: string, connections: number, duration: number): Promise<Sample> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon({ url, method: 'POST', headers, body, connections, pipelining: 1, duration, timeout: 10 }, (error: unknown, result) => {
      if (error) {
        reject(error instanceof Error ? error : new Error('autocannon failed', { cause: error }));
        return;
      }
      const statusCodes: Record<string, number> = {};
      for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count ?? 0;
      resolve({ seconds: result.duration, responses: latencies.length, non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts, statusCodes, latencies });
    });
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
}

async function benchCreate(stage: Stage, options: PostsBenchOptions, store: string): Promise<NonNullable<PostsStoreResult['created']>> {
  const url = `${stage.server.baseUrl}/api/v1/posts`;
  const headers = { authorization: `Bearer ${stage.key}`, 'content-type': 'application/json' };
  const body = JSON.stringify({ content: 'Benchmark post\nwith a body', publishNow: true, platforms: threeTargets(stage) });
  const first = await fetch(url, { method: 'POST', headers, body });
  if (first.status !== 201) throw new Error(`POST /posts answered ${first.status} before the load: ${(await first.text()).slice(0, 300)}`);
  const probeUrl = `${stage.server.baseUrl}/healthz`;
  log(`[${store}] warm-up: ${options.warmup} s each of /healthz and POST /posts`);
  await measure(probeUrl, {}, { connections: options.connections, duration: options.warmup });
  await measurePost(url, headers, body, options.connections, options.warmup);
  const postgres = stage.roundTrips() !== null;
  const boundRows = { organizationId: stage.server.organizationId, accounts: [stage.accounts.reddit, stage.accounts.threads, stage.accounts.facebook] as const };
  if (postgres) await measureBound(stage.databaseUrl, boundRows, options.connections, options.warmup);
  const probes: Sample[] = [];
  const creates: Sample[] = [];
  const bounds: Sample[] = [];
  const counted: RoundTrips = {};
  const rounds = 2;
  for (let round = 1; round <= rounds; round++) {
    log(`[${store}] round ${round}/${rounds}: /healthz, POST /posts${postgres ? ' and the raw bound' : ''}, ${options.duration / rounds} s each`);
    probes.push(await measure(probeUrl, {}, { connections: options.connections, duration: options.duration / rounds }));
    await settled();
    const before = stage.roundTrips();
    creates.push(await measurePost(url, headers, body, options.connections, options.duration / rounds));
    await settled();
    const after = stage.roundTrips();
    for (const [word, n] of Object.entries(after ?? {})) counted[word] = (counted[word] ?? 0) + n - (before?.[word] ?? 0);
    if (postgres) bounds.push(await measureBound(stage.databaseUrl, boundRows, options.connections, options.duration / rounds));
  }
  const create = combine(creates);
  return { probe: combine(probes), create, bound: postgres ? combine(bounds) : null, roundTrips: postgres ? roundTripsPer({}, counted, create.responses) : null };
}

/** Creates posts with bounded concurrency; resolves with their ids. */
async function createMany(stage: Stage, bodies: unknown[], concurrency = 32): Promise<string[]> {
  const ids: string[] = new Array<string>(bodies.length);
  let next = 0;
  const headers = { authorization: `Bearer ${stage.key}`, 'content-type': 'application/json' };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const i = next++;
        const res = await fetch(`${stage.server.baseUrl}/api/v1/posts`, { method: 'POST', headers, body: JSON.stringify(bodies[i]) });
        const text = await res.text();
        if (res.status !== 201) throw new Error(`POST /posts answered ${res.status}: ${text.slice(0, 300)}`);
        ids[i] = (JSON.parse(text) as { post: { id: string } }).post.id;
      }
    }),
  );
  return ids;
}

/** Lead time so that `count` posts are all created before the first falls due. */
const leadFor = (count: number) => 3000 + count;

async function targetCounts(stage: Stage, postIds: Set<string>, since: string): Promise<{ published: number; failed: number }> {
  const rows = await stage.runtime.deps.store.db
    .selectFrom('post_targets')
    .select(['post_id', 'status'])
    .where('post_id', '>=', since)
    .where('status', 'in', ['published', 'failed'])
    .execute();
  let published = 0;
  let failed = 0;
  for (const row of rows) {
    if (!postIds.has(row.post_id)) continue;
    if (row.status === 'published') published++;
    else failed++;
  }
  return { published, failed };
}

/** The distinct errors of the failed targets, with their counts. */
async function failureReasons(stage: Stage, postIds: Set<string>, since: string): Promise<string[]> {
  const rows = await stage.runtime.deps.store.db.selectFrom('post_targets').select(['post_id', 'error']).where('post_id', '>=', since).where('status', '=', 'failed').execute();
  const counts = new Map<string, number>();
  for (const row of rows) if (postIds.has(row.post_id)) counts.set(row.error ?? '(no error)', (counts.get(row.error ?? '(no error)') ?? 0) + 1);
  return [...counts].map(([error, count]) => `${count} × ${error.slice(0, 200)}`);
}

async function benchDelivery(stage: Stage, sandbox: BenchSandbox, posts: number, latencyMs: number, label: string, timeoutMs: number): Promise<DeliveryResult> {
  sandbox.state.faults.clear();
  if (latencyMs > 0) sandbox.state.faults.add({ kind: 'delay', delayMs: latencyMs, times: 1e12 });
  try {
    const bodies = Array.from({ length: posts }, (_, i) => ({ content: `${label} ${i}\nbody`, platforms: threeTargets(stage) }));
    return await deliverDue(stage, `${label}${latencyMs ? ` (${latencyMs} ms per platform call)` : ''}`, bodies, posts * 3, timeoutMs);
  } finally {
    sandbox.state.faults.clear();
  }
}

/**
 * Creates the posts (`bodies`, without a time) all due at one moment once every one is made,
 * then waits for their `total` targets to settle: targets published per second from the due
 * time to the last outcome, with the server's CPU and round trips per published target.
 */
export async function deliverDue(stage: Stage, label: string, bodies: Array<Record<string, unknown>>, total: number, timeoutMs: number): Promise<DeliveryResult> {
  const since = newId('post');
  const dueAt = Date.now() + leadFor(bodies.length);
  const scheduledFor = new Date(dueAt).toISOString();
  log(`${label}: ${bodies.length} posts, ${total} targets due at ${scheduledFor}`);
  const ids = new Set(await createMany(stage, bodies.map((body) => ({ ...body, scheduledFor }))));
  if (Date.now() > dueAt) log(`${label}: creating the posts overran their due time by ${Date.now() - dueAt} ms`);
  await settled();
  const before = stage.roundTrips();
  const cpuBefore = stage.server.cpuSeconds();
  let counts = { published: 0, failed: 0 };
  let doneAt = Date.now();
  const deadline = dueAt + timeoutMs;
  while (Date.now() < deadline) {
    await sleep(100);
    counts = await targetCounts(stage, ids, since);
    doneAt = Date.now();
    if (counts.published + counts.failed >= total) break;
  }
  const cpuAfter = stage.server.cpuSeconds();
  await settled();
  const roundTrips = roundTripsPer(before, stage.roundTrips(), counts.published);
  if (counts.failed > 0) log(`${label}: failed targets' errors: ${(await failureReasons(stage, ids, since)).join('; ')}`);
  const seconds = Math.max(0.001, (doneAt - dueAt) / 1000);
  const cpuMicros = cpuBefore === null || cpuAfter === null || counts.published === 0 ? null : ((cpuAfter - cpuBefore) * 1e6) / counts.published;
  return { targets: total, ...counts, seconds, perSecond: counts.published / seconds, roundTrips, cpuMicros };
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** Posts of one reddit target each, `perSecond` falling due at each of `seconds` whole seconds. */
async function benchLag(stage: Stage, sandbox: BenchSandbox, label: string, seconds: number, perSecond: number, timeoutMs: number): Promise<LagResult> {
  const count = seconds * perSecond;
  const base = Math.ceil((Date.now() + leadFor(count)) / 1000) * 1000;
  const due: Array<{ title: string; at: number }> = Array.from({ length: count }, (_, i) => ({ title: `${label} ${i}`, at: base + Math.floor(i / perSecond) * 1000 }));
  log(`${label}: ${count} posts, ${perSecond} due at each of ${seconds} s from ${new Date(base).toISOString()}`);
  await createMany(
    stage,
    due.map((d) => ({ content: d.title, scheduledFor: new Date(d.at).toISOString(), platforms: [{ accountId: stage.accounts.reddit, platformSpecificData: { subreddit: 'sandbox' } }] })),
  );
  const overran = Date.now() > base;
  if (overran) log(`${label}: creating the posts overran the first due time by ${Date.now() - base} ms`);
  const cpuBefore = stage.server.cpuSeconds();
  const before = stage.roundTrips();
  const last = base + (seconds - 1) * 1000;
  const deadline = last + timeoutMs;
  while (Date.now() < deadline && due.some((d) => !sandbox.arrivals.has(d.title))) await sleep(100);
  const cpuAfter = stage.server.cpuSeconds();
  const after = stage.roundTrips();
  const lags = due.flatMap((d) => {
    const at = sandbox.arrivals.get(d.title);
    return at === undefined ? [] : [at - d.at];
  });
  lags.sort((a, b) => a - b);
  const cpuMicros = cpuBefore === null || cpuAfter === null || lags.length === 0 ? null : ((cpuAfter - cpuBefore) * 1e6) / lags.length;
  return { posts: count, started: lags.length, p50: percentile(lags, 50), p99: percentile(lags, 99), max: lags.at(-1) ?? 0, overran, cpuMicros, roundTrips: roundTripsPer(before, after, lags.length) };
}

async function benchStore(store: string, databaseUrl: NewDatabase, options: PostsBenchOptions): Promise<PostsStoreResult> {
  const sandbox = await startBenchSandbox();
  const runs = (part: PostsPart) => options.only.has(part);
  try {
    let created: PostsStoreResult['created'] = null;
    if (runs('create')) {
      log(`\n[${store}] POST /posts beside /healthz (serve --no-worker)`);
      const api = await startStage(sandbox, databaseUrl, false);
      try {
        created = await benchCreate(api, options, store);
      } finally {
        await api.stop();
      }
    }
    if (!['delivery', 'platforms', 'latency', 'lag', 'burst'].some((part) => runs(part as PostsPart))) return { store, created, delivery: null, platforms: null, deliveryLatency: null, lag: null, burst: null };
    log(`[${store}] delivery and scheduling (serve with its worker)`);
    const full = await startStage(sandbox, databaseUrl, true);
    try {
      const delivery = runs('delivery') ? await benchDelivery(full, sandbox, options.deliveryPosts, 0, `[${store}] delivery`, 120_000) : null;
      const platforms = runs('platforms') ? await benchPlatforms(full, sandbox.state, options.platformPosts, (label, bodies, total) => deliverDue(full, label, bodies, total, 120_000), `[${store}] platforms`) : null;
      const deliveryLatency = runs('latency') ? await benchDelivery(full, sandbox, options.latencyPosts, options.latencyMs, `[${store}] delivery+latency`, 180_000) : null;
      const lag = runs('lag') ? await benchLag(full, sandbox, `[${store}] lag`, options.lagSeconds, options.lagRate, 60_000) : null;
      const burst = runs('burst') ? await benchLag(full, sandbox, `[${store}] burst`, 1, options.burst, 60_000) : null;
      return { store, created, delivery, platforms, deliveryLatency, lag, burst };
    } finally {
      await full.stop();
    }
  } finally {
    await sandbox.close();
  }
}

export async function benchPosts(options: PostsBenchOptions = DEFAULT_OPTIONS): Promise<PostsStoreResult[]> {
  const sqlite: NewDatabase = (dataDir) => Promise.resolve({ url: `sqlite:${join(dataDir, 'socialapi.db')}`, drop: () => Promise.resolve() });
  const results = [await benchStore('SQLite', sqlite, options)];
  const postgresUrl = options.postgresUrl;
  if (postgresUrl) {
    // A schema per server (each starts on an empty database and prints its first key).
    results.push(await benchStore('PostgreSQL', () => createBenchSchema(postgresUrl), options));
  }
  return results;
}

// The issue-6 targets are set for the embedded default; PostgreSQL is judged by issue 21's:
// POST /posts against its raw bound, the rest against SQLite's figures from the same run.
const judged = (store: string) => (ok: boolean) => (store !== 'SQLite' ? 'set for SQLite' : ok ? 'met' : 'NOT met');
const n = (x: number) => Math.round(x).toLocaleString('en-US');
const metOrNot = (ok: boolean) => (ok ? 'met' : 'NOT met');

function roundTripLine(label: string, r: RoundTripsPer | null, cpuMicros: number | null = null): string[] {
  const cpu = cpuMicros === null ? [] : [`    server CPU per ${label}: ${n(cpuMicros)} µs`];
  if (!r) return cpu;
  const words = Object.entries(r.byWord)
    .sort(([, a], [, b]) => b - a)
    .map(([word, per]) => `${word} ${per.toFixed(2)}`)
    .join(', ');
  return [...cpu, `    round trips per ${label}: ${r.total.toFixed(2)} (${words})`];
}

export function formatPostsResult(results: PostsStoreResult[], options: PostsBenchOptions): string[] {
  const out = ['', `posts benchmarks (autocannon ${options.connections} connections; sandbox in the bench process, server in its own)`];
  const sqlite = results.find((r) => r.store === 'SQLite');
  for (const r of results) {
    const verdict = judged(r.store);
    // Within OF_SQLITE of SQLite's figure from this run (more is better for rates, less for times).
    const vsSqlite = (mine: number, theirs: number | undefined, higherIsBetter: boolean, unit: string) =>
      r.store === 'SQLite' || theirs === undefined
        ? ''
        : `; issue 21: within ${OF_SQLITE}× of SQLite's ${n(theirs)}${unit} (${higherIsBetter ? '≥' : '≤'} ${n(higherIsBetter ? theirs / OF_SQLITE : theirs * OF_SQLITE)}${unit}): ${metOrNot(higherIsBetter ? mine * OF_SQLITE >= theirs : mine <= theirs * OF_SQLITE)}`;
    const lines = [`[${r.store}]`];
    const c = r.created;
    if (c) {
      lines.push(
        `  GET /healthz (probe)           ${n(c.probe.rps)} req/s, p50 ${c.probe.p50.toFixed(1)} ms, p99 ${c.probe.p99.toFixed(1)} ms`,
        `  POST /posts (3 targets, now)   ${n(c.create.rps)} req/s, p50 ${c.create.p50.toFixed(1)} ms, p99 ${c.create.p99.toFixed(1)} ms` +
          `  (${((c.create.rps / Math.max(1, c.probe.rps)) * 100).toFixed(0)}% of the probe; non-2xx ${c.create.non2xx}; target ≥ ${n(TARGETS.createsPerSecond)}/s: ${verdict(c.create.rps >= TARGETS.createsPerSecond && c.create.non2xx === 0)})`,
        ...roundTripLine('POST /posts', c.roundTrips),
      );
      if (c.bound) {
        const share = c.create.rps / Math.max(1, c.bound.rps);
        lines.push(
          `  bound: the same rows by raw pg  ${n(c.bound.rps)} posts/s, p50 ${c.bound.p50.toFixed(1)} ms, p99 ${c.bound.p99.toFixed(1)} ms (1 statement per post, ${options.connections} in flight on 10 connections; errors ${c.bound.errors})`,
          `    our share of the bound: ${(share * 100).toFixed(0)}% (issue 21 target ≥ ${BOUND_SHARE * 100}%: ${metOrNot(share >= BOUND_SHARE && c.create.non2xx === 0)})`,
        );
      }
    }
    const d = r.delivery;
    if (d) {
      lines.push(
        `  delivery, no added latency     ${n(d.perSecond)} targets/s (${d.published}/${d.targets} published, ${d.failed} failed, ${d.seconds.toFixed(1)} s; target ≥ ${TARGETS.deliveredPerSecond}/s: ${verdict(d.perSecond >= TARGETS.deliveredPerSecond && d.published === d.targets)}${vsSqlite(d.perSecond, sqlite?.delivery?.perSecond, true, '/s')})`,
        ...roundTripLine('delivered target', d.roundTrips, d.cpuMicros),
      );
    }
    if (r.platforms) lines.push(...formatPlatforms(r.platforms.platforms, r.platforms.upload));
    const dl = r.deliveryLatency;
    if (dl) {
      lines.push(
        `  delivery, ${options.latencyMs} ms per call      ${n(dl.perSecond)} targets/s (${dl.published}/${dl.targets} published, ${dl.failed} failed, ${dl.seconds.toFixed(1)} s; target ≥ ${TARGETS.deliveredPerSecondWithLatency}/s: ${verdict(dl.perSecond >= TARGETS.deliveredPerSecondWithLatency && dl.published === dl.targets)}${vsSqlite(dl.perSecond, sqlite?.deliveryLatency?.perSecond, true, '/s')})`,
        ...roundTripLine('delivered target', dl.roundTrips, dl.cpuMicros),
      );
    }
    if (r.lag) {
      lines.push(
        `  scheduling lag (${options.lagRate}/s for ${options.lagSeconds} s)  p50 ${n(r.lag.p50)} ms, p99 ${n(r.lag.p99)} ms, max ${n(r.lag.max)} ms (${r.lag.started}/${r.lag.posts} started${r.lag.overran ? '; creation overran the first due time' : ''}; target p99 < ${TARGETS.lagP99Ms} ms: ${verdict(r.lag.p99 < TARGETS.lagP99Ms && r.lag.started === r.lag.posts)}${vsSqlite(r.lag.p99, sqlite?.lag?.p99, false, ' ms')})`,
        ...roundTripLine('started post', r.lag.roundTrips, r.lag.cpuMicros),
      );
    }
    if (r.burst) {
      lines.push(
        `  burst of ${n(options.burst)} due at once      last started after ${n(r.burst.max)} ms, p50 ${n(r.burst.p50)} ms (${r.burst.started}/${r.burst.posts} started${r.burst.overran ? '; creation overran the due time' : ''}; target ≤ ${n(TARGETS.burstMs)} ms: ${verdict(r.burst.max <= TARGETS.burstMs && r.burst.started === r.burst.posts)}${vsSqlite(r.burst.max, sqlite?.burst?.max, false, ' ms')})`,
        ...roundTripLine('started post', r.burst.roundTrips, r.burst.cpuMicros),
      );
    }
    out.push('', ...lines);
  }
  return out;
}

function parts(value: string): Set<PostsPart> {
  const names = value.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!(POSTS_PARTS as readonly string[]).includes(name)) throw new Error(`--only takes ${POSTS_PARTS.join(', ')} (got "${name}")`);
  }
  return new Set(names as PostsPart[]);
}

function parseOptions(): PostsBenchOptions {
  const { values } = parseArgs({
    options: {
      postgres: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      'delivery-posts': { type: 'string' },
      'latency-posts': { type: 'string' },
      latency: { type: 'string' },
      'lag-seconds': { type: 'string' },
      'lag-rate': { type: 'string' },
      burst: { type: 'string' },
      'platform-posts': { type: 'string' },
      only: { type: 'string' },
    },
    strict: true,
  });
  const num = (value: string | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    const x = Number(value);
    if (!Number.isFinite(x) || x < 0) throw new Error(`not a number: ${value}`);
    return x;
  };
  const d = DEFAULT_OPTIONS;
  return {
    postgresUrl: values.postgres ?? process.env.BENCH_DATABASE_URL ?? null,
    duration: num(values.duration, d.duration),
    warmup: num(values.warmup, d.warmup),
    connections: num(values.connections, d.connections),
    deliveryPosts: num(values['delivery-posts'], d.deliveryPosts),
    latencyPosts: num(values['latency-posts'], d.latencyPosts),
    latencyMs: num(values.latency, d.latencyMs),
    lagSeconds: num(values['lag-seconds'], d.lagSeconds),
    lagRate: num(values['lag-rate'], d.lagRate),
    burst: num(values.burst, d.burst),
    platformPosts: num(values['platform-posts'], d.platformPosts),
    only: values.only === undefined ? d.only : parts(values.only),
  };
}

if (import.meta.main) {
  try {
    const options = parseOptions();
    const results = await benchPosts(options);
    log(formatPostsResult(results, options).join('\n'));
  } catch (error) {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  }
}
