// `npm run bench`: throughput and latency of the liveness probe and of the cheapest authenticated
// route, on the real server in a process of its own. The probe is the ceiling (HTTP, routing and
// JSON only); the authenticated route adds the key lookup, the per-key rate limit and a tenant
// query. The target: the authenticated route keeps at least 60% of the probe's throughput on SQLite.
// Then, each on fresh servers: webhook delivery (bench/webhooks.ts), the memory of a 1 GiB
// upload (bench/media-upload.ts), posts (bench/posts.ts), the inbox (bench/inbox.ts), direct
// messages (bench/messages.ts), best time over 10,000 published targets (bench/analytics.ts),
// MCP tool calls against the same HTTP calls (bench/mcp.ts), the dashboard's approvals page
// with 10,000 held posts (bench/dashboard.ts), WhatsApp template sends and statuses
// (bench/whatsapp.ts), and one worker against two (bench/scale.ts, PostgreSQL only); each file
// also runs alone.
//
//   npm run bench [-- --duration S] [--rounds N] [--warmup S] [--connections N] [--postgres URL]
//                    [--only http,webhooks,media,posts,inbox,messages,analytics,mcp,dashboard,whatsapp,scale] [PART …]
//
// Parts may also be named without --only: `npm run bench -- inbox`.
//
// Benchmarks print, they don't assert: the exit code is 0 whatever the figures, and non-zero only
// when the bench itself failed (the server did not start, a route did not answer 200 before the load).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { combine, measure, type LoadOptions, type LoadResult, type Sample } from './load.ts';
import { createBenchSchema } from './postgres.ts';
import { benchMediaUpload, formatMediaUploadResult } from './media-upload.ts';
import { benchWebhooks } from './webhooks.ts';
import { benchPosts, DEFAULT_OPTIONS as DEFAULT_POSTS_OPTIONS, formatPostsResult } from './posts.ts';
import { benchInbox, DEFAULT_OPTIONS as DEFAULT_INBOX_OPTIONS, formatInboxResult } from './inbox.ts';
import { benchAnalytics, DEFAULT_OPTIONS as DEFAULT_ANALYTICS_OPTIONS, formatAnalyticsResult } from './analytics.ts';
import { benchMcp, DEFAULT_OPTIONS as DEFAULT_MCP_OPTIONS, formatMcpResult } from './mcp.ts';
import { benchMessages, DEFAULT_OPTIONS as DEFAULT_MESSAGES_OPTIONS, formatMessagesResult } from './messages.ts';
import { benchDashboard, DEFAULT_OPTIONS as DEFAULT_DASHBOARD_OPTIONS, formatDashboardResult } from './dashboard.ts';
import { benchWhatsApp, DEFAULT_OPTIONS as DEFAULT_WHATSAPP_OPTIONS, formatWhatsAppResult } from './whatsapp.ts';
import { benchScale, DEFAULT_OPTIONS as DEFAULT_SCALE_OPTIONS, formatScaleResult } from './scale.ts';
import { createKey, freePort, startServer, type RunningServer } from './server.ts';

const TARGET = 0.6;
/** High enough that the per-key limit never answers 429 during a run; it is still counted. */
const BENCH_RATE_LIMIT = 1_000_000_000;
/** Below this share of one core, the server was waiting for the load generator (or the machine). */
const SATURATED = 0.9;

interface Route {
  name: string;
  path: string;
  authenticated: boolean;
}

const PROBE: Route = { name: 'GET /healthz', path: '/healthz', authenticated: false };
const ACCOUNTS: Route = { name: 'GET /api/v1/accounts', path: '/api/v1/accounts', authenticated: true };
const ROUTES = [PROBE, ACCOUNTS];

interface Settings extends LoadOptions {
  rounds: number;
  warmup: number;
  postgresUrl: string | null;
  /** The parts to run; all by default. */
  only: Set<Part>;
}

const PARTS = ['http', 'webhooks', 'media', 'posts', 'inbox', 'messages', 'analytics', 'mcp', 'dashboard', 'whatsapp', 'scale'] as const;
type Part = (typeof PARTS)[number];

function parts(value: string | undefined): Set<Part> {
  if (value === undefined) return new Set(PARTS);
  const names = value.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!(PARTS as readonly string[]).includes(name)) throw new Error(`--only takes ${PARTS.join(', ')} (got "${name}")`);
  }
  return new Set(names as Part[]);
}

interface Row {
  route: Route;
  result: LoadResult;
  /** The server's CPU use while it was measured; null where it cannot be read. */
  cpu: { share: number; microsPerRequest: number } | null;
}

interface StoreResult {
  store: string;
  rows: Row[];
}

function positive(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number (got "${value}")`);
  return n;
}

function settings(): Settings {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      duration: { type: 'string' },
      rounds: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      postgres: { type: 'string' },
      only: { type: 'string' },
    },
    strict: true,
  });
  return {
    // 10 s per route in all: long enough that one slow second (a GC, a burst of other work on
    // the machine) moves the mean by a few percent only, short enough for a run under a minute.
    duration: positive(values.duration, '--duration', 10),
    // The routes take turns, in rounds of duration / rounds seconds, so that other load on the
    // machine coming and going during the run weighs on both alike rather than on one of them.
    rounds: Math.max(1, Math.round(positive(values.rounds, '--rounds', 2))),
    // The first seconds of a fresh process run unoptimized code (V8 tiers up, statement caches
    // fill); each route gets a warm-up whose figures are thrown away.
    warmup: positive(values.warmup, '--warmup', 3),
    // On 2 cores the server (one thread) and autocannon (one thread) each get one. With one
    // request in flight per connection, 32 connections always leave requests queued at the
    // server, so it never waits for the client; more only lengthen the queue (with 100, p99 grew
    // 2 to 4 times and req/s did not).
    connections: Math.max(1, Math.round(positive(values.connections, '--connections', 32))),
    postgresUrl: values.postgres ?? process.env.BENCH_DATABASE_URL ?? null,
    only: parts(values.only ?? (positionals.length ? positionals.join(',') : undefined)),
  };
}

/** Ctrl-C (or SIGTERM) aborts whatever is under way; main then unwinds and cleans up. */
const interrupt = new AbortController();
const { signal } = interrupt;

/** Undo steps, run in reverse on success, failure and Ctrl-C alike. */
const cleanups: (() => Promise<void> | void)[] = [];

async function runCleanups(from = 0): Promise<void> {
  for (const step of cleanups.splice(from).reverse()) {
    try {
      await step();
    } catch (error) {
      process.stderr.write(`bench: a clean-up step failed: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }
}

async function expect200(url: string, headers: Record<string, string>): Promise<void> {
  const response = await fetch(url, { headers, signal });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status} before the load: ${body.slice(0, 300)}`);
}

/** One route's rounds so far. */
interface Rounds {
  route: Route;
  samples: Sample[];
  cpuSeconds: number | null;
  wallSeconds: number;
}

async function measureRound(server: RunningServer, headers: Record<string, string>, options: LoadOptions, into: Rounds): Promise<void> {
  const cpuBefore = server.cpuSeconds();
  const started = performance.now();
  into.samples.push(await measure(server.baseUrl + into.route.path, headers, options, signal));
  signal.throwIfAborted();
  into.wallSeconds += (performance.now() - started) / 1000;
  const cpuAfter = server.cpuSeconds();
  into.cpuSeconds = cpuBefore === null || cpuAfter === null || into.cpuSeconds === null ? null : into.cpuSeconds + cpuAfter - cpuBefore;
}

function toRow(rounds: Rounds): Row {
  const result = combine(rounds.samples);
  const cpu =
    rounds.cpuSeconds === null || result.responses === 0
      ? null
      : { share: rounds.cpuSeconds / rounds.wallSeconds, microsPerRequest: (rounds.cpuSeconds * 1e6) / result.responses };
  return { route: rounds.route, result, cpu };
}

async function benchStore(store: string, databaseUrl: (dataDir: string) => string, options: Settings): Promise<StoreResult> {
  const mark = cleanups.length;
  const dataDir = mkdtempSync(join(tmpdir(), 'socialapi-bench-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl(dataDir),
    // The in-memory rate limit whatever a .env in the tree says: the figures are one node's own.
    REDIS_URL: '',
  };
  process.stdout.write(`\n[${store}] starting the server (DATA_DIR=${dataDir}, port ${env.PORT})\n`);
  const server = await startServer(env, undefined, false, signal);
  cleanups.push(() => server.stop());
  const key = await createKey(env, server.organizationId, BENCH_RATE_LIMIT, signal);
  const headersFor = (route: Route): Record<string, string> => (route.authenticated ? { authorization: `Bearer ${key}` } : {});

  for (const route of ROUTES) await expect200(server.baseUrl + route.path, headersFor(route));
  for (const route of ROUTES) {
    process.stdout.write(`[${store}] warm-up ${route.name}: ${options.warmup} s\n`);
    await measure(server.baseUrl + route.path, headersFor(route), { ...options, duration: options.warmup }, signal);
    signal.throwIfAborted();
  }
  const runs = ROUTES.map((route): Rounds => ({ route, samples: [], cpuSeconds: 0, wallSeconds: 0 }));
  const perRound = { connections: options.connections, duration: options.duration / options.rounds };
  for (let round = 1; round <= options.rounds; round++) {
    for (const run of runs) {
      process.stdout.write(`[${store}] round ${round}/${options.rounds}, ${run.route.name}: ${options.connections} connections, ${perRound.duration} s\n`);
      await measureRound(server, headersFor(run.route), perRound, run);
    }
  }
  const rows = runs.map(toRow);
  // Stop this server and remove its data now, so the next store's server has the machine alone.
  await runCleanups(mark);
  return { store, rows };
}

function table(header: string[], lines: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  // Text columns (the first two and the last) to the left, figures to the right.
  const format = (cells: string[]) =>
    cells.map((c, i) => (i < 2 || i === cells.length - 1 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ').trimEnd();
  return [format(header), format(widths.map((w) => '-'.repeat(w))), ...lines.map(format)];
}

function nonSuccess(result: LoadResult): string {
  if (result.non2xx === 0) return '0';
  const codes = Object.entries(result.statusCodes).filter(([code]) => !code.startsWith('2'));
  return `${result.non2xx} (${codes.map(([code, n]) => `${code}: ${n}`).join(', ')})`;
}

function report(results: StoreResult[], options: Settings): string[] {
  const lines = results.flatMap(({ store, rows }) =>
    rows.map(({ route, result, cpu }) => [
      store,
      route.name,
      Math.round(result.rps).toLocaleString('en-US'),
      result.p50.toFixed(1),
      result.p99.toFixed(1),
      cpu ? `${Math.round(cpu.share * 100)}%` : '-',
      cpu ? cpu.microsPerRequest.toFixed(0) : '-',
      nonSuccess(result),
    ]),
  );
  const out = [
    '',
    `autocannon: ${options.connections} connections, no pipelining; per route ${options.warmup} s of warm-up, then ${options.duration} s in ${options.rounds} rounds taking turns.`,
    'server: `socialapi serve --no-worker` with LOG_LEVEL=warn (at info, writing one log line per request would',
    'dominate the figures) and the in-memory rate limit; load generator and server share this machine.',
    '',
    ...table(['store', 'route', 'req/s', 'p50 ms', 'p99 ms', 'server CPU', 'CPU µs/req', 'non-2xx'], lines),
    '',
  ];
  for (const { store, rows } of results) {
    const probe = rows.find((r) => r.route === PROBE);
    const accounts = rows.find((r) => r.route === ACCOUNTS);
    if (!probe || !accounts || probe.result.rps === 0) continue;
    const ratio = accounts.result.rps / probe.result.rps;
    const verdict = store === 'SQLite' ? `  (target ≥ ${TARGET * 100}% on SQLite: ${ratio >= TARGET ? 'met' : 'NOT met'})` : '';
    out.push(`authenticated / probe throughput on ${store}: ${(ratio * 100).toFixed(1)}%${verdict}`);
    if (probe.cpu && accounts.cpu) {
      const cpuRatio = probe.cpu.microsPerRequest / accounts.cpu.microsPerRequest;
      out.push(`  the same in server CPU per request (${probe.cpu.microsPerRequest.toFixed(0)} / ${accounts.cpu.microsPerRequest.toFixed(0)} µs): ${(cpuRatio * 100).toFixed(1)}%`);
      const starved = [probe, accounts].filter((r) => r.cpu && r.cpu.share < SATURATED).map((r) => r.route.name);
      if (starved.length) {
        out.push(`  note: the server was below ${SATURATED * 100}% of a core during ${starved.join(' and ')}: other processes (a local`);
        out.push('  database among them) or the load generator held it back, so trust the CPU-per-request ratio more than the req/s one.');
      }
    }
  }
  const failed = results.flatMap(({ store, rows }) => rows.filter(({ result }) => result.non2xx > 0 || result.errors > 0).map(({ route }) => `${store} ${route.name}`));
  for (const { store, rows } of results) {
    for (const { route, result } of rows) {
      if (result.errors > 0) out.push(`${store} ${route.name}: ${result.errors} connection errors, ${result.timeouts} of them timeouts`);
    }
  }
  out.push(failed.length ? `not every answer was 200: ${failed.join(', ')}` : 'every answer was 200.');
  return out;
}

async function main(): Promise<void> {
  const options = settings();
  if (options.only.has('http')) await benchHttp(options);
  // The other capabilities' figures, each on its own fresh server (see each file's header).
  if (options.only.has('webhooks')) {
    signal.throwIfAborted();
    await benchWebhooks({ rate: 200, seconds: 10, burst: 2000, postgresUrl: null });
  }
  if (options.only.has('media')) {
    signal.throwIfAborted();
    process.stdout.write('\nMedia upload (1 GiB multipart, streamed)\n');
    process.stdout.write(`${formatMediaUploadResult(await benchMediaUpload())}\n`);
  }
  if (options.only.has('posts')) {
    signal.throwIfAborted();
    const postsOptions = { ...DEFAULT_POSTS_OPTIONS, postgresUrl: options.postgresUrl };
    process.stdout.write(`${formatPostsResult(await benchPosts(postsOptions), postsOptions).join('\n')}\n`);
  }
  if (options.only.has('inbox')) {
    signal.throwIfAborted();
    const inboxOptions = { ...DEFAULT_INBOX_OPTIONS, postgresUrl: options.postgresUrl };
    process.stdout.write(`${formatInboxResult(await benchInbox(inboxOptions), inboxOptions).join('\n')}\n`);
  }
  if (options.only.has('messages')) {
    signal.throwIfAborted();
    const messagesOptions = { ...DEFAULT_MESSAGES_OPTIONS, postgresUrl: options.postgresUrl };
    process.stdout.write(`${formatMessagesResult(await benchMessages(messagesOptions), messagesOptions).join('\n')}\n`);
  }
  if (options.only.has('analytics')) {
    signal.throwIfAborted();
    const analyticsOptions = { ...DEFAULT_ANALYTICS_OPTIONS, postgresUrl: options.postgresUrl };
    process.stdout.write(`${formatAnalyticsResult(await benchAnalytics(analyticsOptions), analyticsOptions).join('\n')}\n`);
  }
  if (options.only.has('mcp')) {
    signal.throwIfAborted();
    const mcpOptions = { ...DEFAULT_MCP_OPTIONS, postgresUrl: options.postgresUrl };
    process.stdout.write(`${formatMcpResult(await benchMcp(mcpOptions), mcpOptions).join('\n')}\n`);
  }
  if (options.only.has('dashboard')) {
    signal.throwIfAborted();
    const dashboardOptions = { ...DEFAULT_DASHBOARD_OPTIONS, postgresUrl: options.postgresUrl };
    process.stdout.write(`${formatDashboardResult(await benchDashboard(dashboardOptions), dashboardOptions).join('\n')}\n`);
  }
  if (options.only.has('whatsapp')) {
    signal.throwIfAborted();
    process.stdout.write(`${formatWhatsAppResult(await benchWhatsApp(DEFAULT_WHATSAPP_OPTIONS), DEFAULT_WHATSAPP_OPTIONS).join('\n')}\n`);
  }
  if (options.only.has('scale')) {
    signal.throwIfAborted();
    const scaleOptions = { ...DEFAULT_SCALE_OPTIONS, postgresUrl: options.postgresUrl };
    process.stdout.write(`${formatScaleResult(await benchScale(scaleOptions), scaleOptions).join('\n')}\n`);
  }
}

async function benchHttp(options: Settings): Promise<void> {
  const results: StoreResult[] = [];
  results.push(await benchStore('SQLite', (dataDir) => `sqlite:${join(dataDir, 'socialapi.db')}`, options));
  if (options.postgresUrl) {
    signal.throwIfAborted();
    const schema = await createBenchSchema(options.postgresUrl);
    cleanups.push(() => schema.drop());
    signal.throwIfAborted();
    process.stdout.write(`\n[PostgreSQL] schema ${schema.name}, dropped at the end\n`);
    results.push(await benchStore('PostgreSQL', () => schema.url, options));
  }
  process.stdout.write(`${report(results, options).join('\n')}\n`);
}

for (const name of ['SIGINT', 'SIGTERM'] as const) {
  process.on(name, () => {
    if (signal.aborted) {
      process.stderr.write(`bench: second ${name}, exiting without cleaning up\n`);
      process.exit(130);
    }
    process.stderr.write(`\nbench: ${name}; stopping the server and removing its data\n`);
    interrupt.abort(new Error(`interrupted by ${name}`));
  });
}

try {
  await main();
} catch (error) {
  const reason: unknown = signal.aborted ? signal.reason : error;
  process.stderr.write(`bench failed: ${reason instanceof Error ? reason.message : String(reason)}\n`);
  process.exitCode = signal.aborted ? 130 : 1;
} finally {
  await runCleanups();
}
