// Several nodes on one machine, as an operator would run them: `socialapi serve --no-worker` API
// nodes and `socialapi worker` processes, each with a data folder of its own, sharing only what
// must be shared (the database, Redis, the encryption key, the public URL), and a platform
// sandbox served from the test's process (PLATFORM_API_BASE) so the test can seed accounts, slow
// calls down and read the journal of what reached the platforms.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import { createSealer } from '../../src/lib/crypto.ts';
import { SandboxState } from '../../src/sandbox/index.ts';
import { sandboxPlugin } from '../../src/sandbox/plugin.ts';
import { spawnCli, type Spawned } from './cli.ts';
import { seedSandboxAccount } from './sandbox-accounts.ts';
import { freePort } from '../../bench/server.ts';

export { freePort };


export interface SandboxServer {
  url: string;
  state: SandboxState;
  close(): Promise<void>;
}

/** The sandbox on loopback, its platform limits raised so that only the test's faults slow it. */
export async function startSandboxServer(): Promise<SandboxServer> {
  const state = new SandboxState();
  state.updateSettings({
    processing: { threadsTextMs: 0 },
    limits: { threadsPosts: 1e9, threadsReplies: 1e9, instagramPosts: 1e9, redditRequestsPerWindow: 1e9, tiktokInitPerMinute: 1e9, tiktokStatusPerMinute: 1e9 },
  });
  const app = Fastify({ logger: false, bodyLimit: 10 * 1024 * 1024 });
  await app.register(sandboxPlugin, { state, prefix: '' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the sandbox has no address');
  return { url: `http://127.0.0.1:${address.port}`, state, close: () => app.close() };
}

/** The settings every node shares; each process adds its own DATA_DIR (and PORT). */
export function sharedSettings(databaseUrl: string, redisUrl: string, sandboxUrl: string, publicBaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    PUBLIC_BASE_URL: publicBaseUrl,
    SANDBOX: '1',
    PLATFORM_API_BASE: sandboxUrl,
    HOST: '127.0.0.1',
  };
}

export interface Node {
  name: string;
  process: Spawned;
  pid: number;
  /** The API's base URL (API nodes only). */
  url: string | null;
  /** The banner's first key and organization (the first API node on an empty database only). */
  firstKey: string | null;
  organizationId: string | null;
}

/** The data folders made for nodes, removed by removeDataDirs(). */
const dataDirs: string[] = [];

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'socialapi-node-'));
  dataDirs.push(dir);
  return dir;
}

export function removeDataDirs(): void {
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** `socialapi serve --no-worker` on `port`; resolves once its banner is printed. */
export async function startApiNode(name: string, shared: Record<string, string>, port: number, extra: Record<string, string> = {}): Promise<Node> {
  const spawned = spawnCli(['serve', '--no-worker'], { ...shared, DATA_DIR: dataDir(), PORT: String(port), LOG_LEVEL: 'warn', ...extra });
  const banner = await spawned.waitFor(/API document: /, 60_000);
  const text = banner.input ?? '';
  return {
    name,
    process: spawned,
    pid: spawned.child.pid ?? 0,
    url: `http://127.0.0.1:${port}`,
    firstKey: /^\s*(sk_\S+)\s*$/m.exec(text)?.[1] ?? null,
    organizationId: /A first organization \((org_\w+)\)/.exec(text)?.[1] ?? null,
  };
}

/** `socialapi worker`; resolves once it has started. */
export async function startWorkerNode(name: string, shared: Record<string, string>, extra: Record<string, string> = {}): Promise<Node> {
  const spawned = spawnCli(['worker'], { ...shared, DATA_DIR: dataDir(), LOG_LEVEL: 'info', ...extra });
  await spawned.waitFor(/worker started/, 60_000);
  return { name, process: spawned, pid: spawned.child.pid ?? 0, url: null, firstKey: null, organizationId: null };
}

/** A reddit or facebook account (a fresh sandbox person or Page each), its token sealed with the shared key. */
export function seedAccount(db: Kysely<Database>, encryptionKeyHex: string, sandbox: SandboxState, organizationId: string, platform: 'reddit' | 'facebook'): Promise<string> {
  return seedSandboxAccount(db, createSealer(Buffer.from(encryptionKeyHex, 'hex')), sandbox, organizationId, platform);
}
