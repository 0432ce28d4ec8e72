// MCP benchmark (issue 20, point 6), on the real server (`socialapi serve --no-worker`): what a
// tool call over Streamable HTTP costs beyond the same HTTP call. The same media is read both
// ways, one request in flight, the two taking turns (and swapping which goes first) so that
// other load on the machine weighs on both alike: GET /api/v1/media/{id}, and POST /mcp with
// tools/call get_media {id}, which runs that very route in the server through inject. Reported:
// each one's median and p99, and the median of the per-pair difference (target: under 1 ms).
// Also the time of tools/list: the first after start (it builds the tools from the API
// document) and then its median, with the size of its answer.
//
//   node bench/mcp.ts [--iterations 2000] [--warmup 300] [--postgres URL]
//
// Prints the figures against the target (met / not met); asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { createBenchSchema } from './postgres.ts';
import { createKey, freePort, startServer } from './server.ts';

export const TARGET_OVERHEAD_MS = 1;

export interface McpBenchOptions {
  postgresUrl: string | null;
  /** Pairs measured (one HTTP call and one tool call each). */
  iterations: number;
  /** Pairs run first, their figures thrown away. */
  warmup: number;
}

export const DEFAULT_OPTIONS: McpBenchOptions = { postgresUrl: null, iterations: 2000, warmup: 300 };

interface Spread {
  p50: number;
  p99: number;
}

export interface McpStoreResult {
  store: string;
  http: Spread;
  tool: Spread;
  /** The median and p99 of (tool call − HTTP call), pair by pair. */
  overhead: Spread;
  list: { firstMs: number; p50: number; tools: number; bytes: number };
}

// A 1×1 JPEG: the media both calls read.
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);

function spread(values: number[]): Spread {
  const sorted = Float64Array.from(values).sort();
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? NaN;
  return { p50: at(0.5), p99: at(0.99) };
}

async function timed(run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function benchStore(store: string, databaseUrl: (dataDir: string) => string, options: McpBenchOptions): Promise<McpStoreResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'socialapi-bench-mcp-'));
  const env = { DATA_DIR: dataDir, PORT: String(await freePort()), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl(dataDir), REDIS_URL: '' };
  const server = await startServer(env);
  const agent = new Agent({ connections: 2 });
  try {
    const key = await createKey(env, server.organizationId, 1_000_000_000);
    const auth = { authorization: `Bearer ${key}` };
    const call = async (method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await request(`${server.baseUrl}${path}`, {
        method,
        dispatcher: agent,
        headers: { ...auth, ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.body.text();
      if (response.statusCode >= 300) throw new Error(`${method} ${path} answered ${response.statusCode}: ${text.slice(0, 300)}`);
      return text;
    };
    const mcp = (message: unknown) => call('POST', '/mcp', message, { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' });

    const uploaded = JSON.parse(await call('POST', '/api/v1/media', { base64: JPEG.toString('base64'), fileName: 'bench.jpg' })) as { media: { id: string } };
    const id = uploaded.media.id;
    const listMessage = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    let listed = '';
    const firstMs = await timed(async () => {
      listed = await mcp(listMessage);
    });
    const tools = (JSON.parse(listed) as { result: { tools: unknown[] } }).result.tools.length;

    const toolMessage = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_media', arguments: { id } } };
    const viaTool = JSON.parse(await mcp(toolMessage)) as { result?: { isError?: boolean; content: Array<{ text: string }> } };
    const viaHttp = await call('GET', `/api/v1/media/${id}`);
    if (viaTool.result?.isError || viaTool.result?.content[0]?.text !== viaHttp) throw new Error(`the tool did not answer what the route does: ${JSON.stringify(viaTool).slice(0, 300)}`);

    const httpTimes: number[] = [];
    const toolTimes: number[] = [];
    const overheads: number[] = [];
    for (let i = 0; i < options.warmup + options.iterations; i++) {
      const http = () => timed(async () => void (await call('GET', `/api/v1/media/${id}`)));
      const tool = () => timed(async () => void (await mcp(toolMessage)));
      let h: number;
      let t: number;
      if (i % 2 === 0) {
        h = await http();
        t = await tool();
      } else {
        t = await tool();
        h = await http();
      }
      if (i < options.warmup) continue;
      httpTimes.push(h);
      toolTimes.push(t);
      overheads.push(t - h);
    }
    const listTimes: number[] = [];
    for (let i = 0; i < Math.min(500, options.iterations); i++) listTimes.push(await timed(async () => void (await mcp(listMessage))));
    return { store, http: spread(httpTimes), tool: spread(toolTimes), overhead: spread(overheads), list: { firstMs, p50: spread(listTimes).p50, tools, bytes: Buffer.byteLength(listed) } };
  } finally {
    await agent.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchMcp(options: McpBenchOptions): Promise<McpStoreResult[]> {
  const results = [await benchStore('SQLite', (dataDir) => `sqlite:${join(dataDir, 'socialapi.db')}`, options)];
  if (options.postgresUrl) {
    const schema = await createBenchSchema(options.postgresUrl);
    try {
      results.push(await benchStore('PostgreSQL', () => schema.url, options));
    } finally {
      await schema.drop();
    }
  }
  return results;
}

export function formatMcpResult(results: McpStoreResult[], options: McpBenchOptions): string[] {
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  const out = ['', `MCP tool calls over Streamable HTTP (${options.iterations} pairs after ${options.warmup} of warm-up, one request in flight)`];
  for (const r of results) {
    out.push(
      `[${r.store}] GET /api/v1/media/{id}: p50 ${ms(r.http.p50)}, p99 ${ms(r.http.p99)}`,
      `[${r.store}] tools/call get_media:   p50 ${ms(r.tool.p50)}, p99 ${ms(r.tool.p99)}`,
      `[${r.store}] overhead of the tool call: median of the pairs' differences ${ms(r.overhead.p50)} (target: under ${TARGET_OVERHEAD_MS} ms: ${r.overhead.p50 < TARGET_OVERHEAD_MS ? 'met' : 'NOT met'}), p99 ${ms(r.overhead.p99)}; difference of the medians ${ms(r.tool.p50 - r.http.p50)}`,
      `[${r.store}] tools/list: ${r.list.tools} tools, ${(r.list.bytes / 1024).toFixed(0)} KiB; first after start ${ms(r.list.firstMs)} (builds the tools), then p50 ${ms(r.list.p50)}`,
    );
  }
  return out;
}

function parseOptions(): McpBenchOptions {
  const { values } = parseArgs({ options: { postgres: { type: 'string' }, iterations: { type: 'string' }, warmup: { type: 'string' } }, strict: true });
  const num = (value: string | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    const x = Number(value);
    if (!Number.isInteger(x) || x < 0) throw new Error(`not a whole number: ${value}`);
    return x;
  };
  return {
    postgresUrl: values.postgres ?? process.env.BENCH_DATABASE_URL ?? null,
    iterations: Math.max(1, num(values.iterations, DEFAULT_OPTIONS.iterations)),
    warmup: num(values.warmup, DEFAULT_OPTIONS.warmup),
  };
}

if (import.meta.main) {
  try {
    const options = parseOptions();
    process.stdout.write(`${formatMcpResult(await benchMcp(options), options).join('\n')}\n`);
  } catch (error) {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  }
}
