// The service under measurement, run as an operator would: `socialapi serve` in a process of its
// own, so the load generator (this process) and the server each get one of the machine's cores.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = fileURLToPath(new URL('../bin/socialapi.js', import.meta.url));
/** Kept for error messages only; a long run must not grow the bench's memory. */
const OUTPUT_TAIL = 16 * 1024;

export interface RunningServer {
  baseUrl: string;
  /** The organization created on first start. */
  organizationId: string;
  /** Its key, with the default per-key limit. */
  firstKey: string;
  /** What the server printed lately (stdout and stderr). */
  output(): string;
  /** CPU seconds (user + system) the server has used so far; null where /proc is not available. */
  cpuSeconds(): number | null;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

/** A port nobody listens on right now (the OS picks it; we release it for the server). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

// BENCH_SERVER_NODE_OPTIONS reaches the server alone, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"
// to profile it under the bench's load; so do NODE_OPTIONS and BENCH_PG_ROUND_TRIPS given in
// `env` (the round-trip counter, bench/pg-round-trips.ts), which the CLI must not share.
function serverEnv(env: Record<string, string>, forServer = false): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: own, BENCH_PG_ROUND_TRIPS: counts, ...shared } = env;
  if (!forServer) return { ...process.env, ...shared };
  const nodeOptions = [own, process.env.BENCH_SERVER_NODE_OPTIONS].filter(Boolean).join(' ');
  return { ...process.env, ...shared, ...(counts ? { BENCH_PG_ROUND_TRIPS: counts } : {}), ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) };
}

/** Starts `socialapi serve` (without its worker unless asked) and waits for its first-start banner. */
export async function startServer(env: Record<string, string>, timeoutMs = 30_000, withWorker = false, signal?: AbortSignal): Promise<RunningServer> {
  // BENCH_SERVER_CPU_PROF=dir: the server writes a CPU profile there when it stops (--cpu-prof is not allowed in NODE_OPTIONS).
  const profile = process.env.BENCH_SERVER_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, BIN, 'serve', ...(withWorker ? [] : ['--no-worker'])], { cwd: ROOT, env: serverEnv(env, true), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const onData = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_TAIL);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const server = (baseUrl: string, organizationId: string, firstKey: string): RunningServer => ({
    baseUrl,
    organizationId,
    firstKey,
    output: () => output,
    cpuSeconds: () => (child.pid === undefined ? null : cpuSeconds(child.pid)),
    stop: (graceMs = 5000) => stopChild(child, exited, graceMs),
  });
  try {
    const banner = await waitForBanner(child, () => output, signal, timeoutMs);
    return server(banner.baseUrl, banner.organizationId, banner.key);
  } catch (error) {
    await stopChild(child, exited, 2000);
    throw error;
  }
}

let clockTicks: number | undefined;

function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** Linux only: fields 14 and 15 of /proc/PID/stat, in clock ticks. */
function cpuSeconds(pid: number): number | null {
  try {
    // The command name (field 2) may hold spaces; the fields after it are plain numbers.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks / ticksPerSecond() : null;
  } catch {
    return null;
  }
}

interface Banner {
  baseUrl: string;
  organizationId: string;
  key: string;
}

function parseBanner(text: string): Banner | null {
  const listening = /listening on (http:\/\/\S+)/.exec(text);
  const org = /A first organization \((org_\w+)\)/.exec(text);
  const key = /^\s*(sk_\S+)\s*$/m.exec(text);
  if (!listening?.[1] || !org?.[1] || !key?.[1]) return null;
  // The whole banner is one write; wait for its last line so the key line is complete.
  if (!text.includes('API document:')) return null;
  return { baseUrl: listening[1], organizationId: org[1], key: key[1] };
}

function waitForBanner(child: ChildProcess, output: () => string, signal: AbortSignal | undefined, timeoutMs: number): Promise<Banner> {
  return new Promise((resolve, reject) => {
    const finish = (error: Error | null, banner?: Banner) => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.off('exit', onExit);
      signal?.removeEventListener('abort', onAbort);
      if (banner) resolve(banner);
      else reject(error ?? new Error('no banner'));
    };
    const check = () => {
      const banner = parseBanner(output());
      if (banner) finish(null, banner);
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      finish(new Error(`the server exited (${signal ?? `code ${String(code)}`}) before it was listening; output:\n${output()}`));
    const onAbort = () => finish(new Error('interrupted while the server was starting'));
    const timer = setTimeout(() => finish(new Error(`the server did not print its banner within ${timeoutMs} ms; output:\n${output()}`)), timeoutMs);
    child.stdout?.on('data', check);
    child.once('exit', onExit);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    else check();
  });
}

async function stopChild(child: ChildProcess, exited: Promise<void>, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const killed = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      resolve();
    }, graceMs);
  });
  await Promise.race([exited, killed]);
  clearTimeout(timer);
  await exited;
}

/**
 * `socialapi keys create --org ORG --rate-limit N` against the same store; returns the key. An
 * abort kills the command, and the promise settles once it has exited (so it no longer writes
 * to the data folder about to be removed).
 */
export function createKey(env: Record<string, string>, organizationId: string, rateLimit: number, signal?: AbortSignal): Promise<string> {
  const args = [BIN, 'keys', 'create', '--org', organizationId, '--name', 'bench', '--rate-limit', String(rateLimit)];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: ROOT, env: serverEnv(env), timeout: 30_000, ...(signal ? { signal } : {}) }, (error, stdout, stderr) => {
      const key = /^(sk_\S+)$/m.exec(stdout)?.[1];
      if (error || !key) {
        reject(new Error(`keys create failed${error ? ` (${error.message})` : ''}:\n${stdout}${stderr}`));
        return;
      }
      resolve(key);
    });
  });
}
