// A service to measure against the platform sandbox: `socialapi serve` (API and worker) in a
// process of its own on a fresh SQLite file, calling the sandbox (PLATFORM_API_BASE) that runs
// in the bench process (startSandboxedServer) or in one of its own (startService with
// sandbox-process.ts). The bench process holds the load generator and the webhook receiver.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sandboxApp } from '../src/platforms/registry.ts';
import { startSandbox, type RunningSandbox } from '../src/sandbox/index.ts';
import { createKey, freePort, startServer, type RunningServer } from './server.ts';

/** The service against a sandbox at `sandboxUrl`: its process, environment, first organization and a key. */
export interface ServiceUnderTest {
  server: RunningServer;
  /** The server's environment (DATA_DIR, DATABASE_URL …), for commands against its store. */
  env: Record<string, string>;
  organizationId: string;
  /** A key without a practical rate limit. */
  key: string;
  /** JSON request to the service's API with the key; the status and the parsed answer. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Stops the server and removes its data. */
  stop(): Promise<void>;
}

export interface SandboxedServer extends ServiceUnderTest {
  sandbox: RunningSandbox;
}

export async function startSandboxedServer(label: string): Promise<SandboxedServer> {
  const sandbox = await startSandbox({ seed: 'bench' });
  const meta = sandboxApp('meta');
  // The service's Meta app (sandbox mode's fixed one): the sandbox signs its webhooks with its secret.
  sandbox.state.configureApp({ platform: 'facebook', clientId: meta.clientId, clientSecret: meta.clientSecret });
  try {
    const service = await startService(label, sandbox.url);
    return {
      ...service,
      sandbox,
      async stop() {
        await service.stop();
        await sandbox.close();
      },
    };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}

export async function startService(label: string, sandboxUrl: string): Promise<ServiceUnderTest> {
  const dataDir = mkdtempSync(join(tmpdir(), `socialapi-bench-${label}-`));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: `sqlite:${join(dataDir, 'socialapi.db')}`,
    REDIS_URL: '',
    SANDBOX: '1',
    PLATFORM_API_BASE: sandboxUrl,
  };
  let server: RunningServer | null = null;
  try {
    server = await startServer(env, 30_000, true);
    const key = await createKey(env, server.organizationId, 1_000_000_000);
    const baseUrl = server.baseUrl;
    const running = server;
    return {
      server,
      env,
      organizationId: server.organizationId,
      key,
      async api(method, path, body) {
        const res = await fetch(`${baseUrl}/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await res.text();
        return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
      },
      async stop() {
        await running.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (server) process.stderr.write(`${label}: the server's last output:\n${server.output().slice(-3000)}\n`);
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
