// The memory cost of a large upload: starts `socialapi serve` as a process of its own (local
// media store, SQLite, a fresh data folder), streams one multipart upload of 1 GiB generated on
// the fly (a PNG head, then filler; nothing is read from disk), samples the server's resident
// memory (RSS) while the upload runs, and prints the peak increase over the server's idle RSS.
// Streaming to the store should keep that peak at a few tens of MiB whatever the file's size.
//
//   npx node bench/media-upload.ts [--size-mib N] [--sample-ms N]
//
// `npm run bench` calls benchMediaUpload() and prints formatMediaUploadResult() of its result.
// Like the other benchmarks this prints, it does not assert: it fails only when the bench itself
// fails (the server does not start, or the upload is not answered 201).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort } from './server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = fileURLToPath(new URL('../bin/socialapi.js', import.meta.url));
const MiB = 1024 * 1024;

export interface MediaUploadBenchOptions {
  /** Bytes of the uploaded file; default 1 GiB. */
  sizeBytes?: number;
  /** How often the server's RSS is read; default 20 ms. */
  sampleMs?: number;
}

export interface MediaUploadBenchResult {
  sizeBytes: number;
  seconds: number;
  /** MiB per second through HTTP, multipart parsing, type detection and the local store. */
  throughputMiBs: number;
  /** The server's RSS before the upload (idle, after a small warm-up upload). */
  idleRssBytes: number;
  peakRssBytes: number;
  /** peakRssBytes − idleRssBytes: what the upload itself cost. */
  peakIncreaseBytes: number;
  samples: number;
}

/** The resident set of a process, in bytes (Linux /proc, else ps). */
function rssOf(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    if (kib) return Number(kib) * 1024;
  } catch {
    // not Linux, or the process is gone
  }
  try {
    const kib = execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return kib ? Number(kib) * 1024 : null;
  } catch {
    return null;
  }
}

interface Server {
  child: ChildProcess;
  baseUrl: string;
  key: string;
  stop(): Promise<void>;
}

async function startServer(dataDir: string): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve', '--no-worker'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', PUBLIC_BASE_URL: '', S3_BUCKET: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const key = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start within 30 s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-16 * 1024);
      const found = /^\s*(sk_\S+)\s*$/m.exec(output)?.[1];
      if (found && output.includes('API document:')) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the server exited before it was listening:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { child, baseUrl: `http://127.0.0.1:${port}`, key, stop };
}

const PNG_HEAD = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

/** POSTs a multipart upload of `size` bytes, generated chunk by chunk; resolves with the status. */
function upload(server: Server, size: number): Promise<{ status: number; body: string }> {
  const boundary = `bench${Date.now().toString(36)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.png"\r\nContent-Type: image/png\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const filler = Buffer.alloc(MiB, 0x5a);
  return new Promise((resolve, reject) => {
    const req = request(`${server.baseUrl}/api/v1/media`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.key}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + size + tail.length,
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.write(head);
    req.write(PNG_HEAD);
    let left = size - PNG_HEAD.length;
    const pump = () => {
      while (left > 0) {
        const chunk = left >= filler.length ? filler : filler.subarray(0, left);
        left -= chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end(tail);
    };
    pump();
  });
}

/** Runs the benchmark once; the server process is started and stopped inside. */
export async function benchMediaUpload(options: MediaUploadBenchOptions = {}): Promise<MediaUploadBenchResult> {
  const sizeBytes = options.sizeBytes ?? 1024 * MiB;
  const sampleMs = options.sampleMs ?? 20;
  const dataDir = mkdtempSync(join(tmpdir(), 'socialapi-bench-media-'));
  const server = await startServer(dataDir);
  try {
    const pid = server.child.pid;
    if (pid === undefined) throw new Error('the server has no pid');
    // A small upload first, so the modules and code paths of an upload are loaded before the
    // idle figure is taken; then let the process settle.
    const warm = await upload(server, 64 * 1024);
    if (warm.status !== 201) throw new Error(`the warm-up upload answered ${warm.status}: ${warm.body}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const idleRssBytes = rssOf(pid) ?? 0;
    let peakRssBytes = idleRssBytes;
    let samples = 0;
    const sampler = setInterval(() => {
      const rss = rssOf(pid);
      if (rss !== null) {
        samples++;
        peakRssBytes = Math.max(peakRssBytes, rss);
      }
    }, sampleMs);
    const started = performance.now();
    let result: { status: number; body: string };
    try {
      result = await upload(server, sizeBytes);
    } finally {
      clearInterval(sampler);
    }
    const seconds = (performance.now() - started) / 1000;
    if (result.status !== 201) throw new Error(`the upload answered ${result.status}: ${result.body.slice(0, 500)}`);
    return {
      sizeBytes,
      seconds,
      throughputMiBs: sizeBytes / MiB / seconds,
      idleRssBytes,
      peakRssBytes,
      peakIncreaseBytes: peakRssBytes - idleRssBytes,
      samples,
    };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;

export function formatMediaUploadResult(result: MediaUploadBenchResult): string {
  return [
    `media upload: ${mib(result.sizeBytes)} multipart to the local store in ${result.seconds.toFixed(1)} s (${result.throughputMiBs.toFixed(0)} MiB/s)`,
    `  server RSS: idle ${mib(result.idleRssBytes)}, peak ${mib(result.peakRssBytes)} (${result.samples} samples)`,
    `  peak increase during the upload: ${mib(result.peakIncreaseBytes)}`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { 'size-mib': { type: 'string' }, 'sample-ms': { type: 'string' } } });
  const sizeMiB = Number(values['size-mib'] ?? 1024);
  const sampleMs = Number(values['sample-ms'] ?? 20);
  if (!(sizeMiB > 0) || !(sampleMs > 0)) {
    process.stderr.write('usage: npx node bench/media-upload.ts [--size-mib N] [--sample-ms N]\n');
    process.exit(2);
  }
  try {
    process.stdout.write(`${formatMediaUploadResult(await benchMediaUpload({ sizeBytes: Math.round(sizeMiB * MiB), sampleMs }))}\n`);
  } catch (error) {
    process.stderr.write(`media upload bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
