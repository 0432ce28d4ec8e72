// Connecting accounts in tests: the service on a known port (so its OAuth callbacks and the
// in-process sandbox have a real address), and a browser's walk through a connect: the authorize
// URL, the sandbox's consent page, and the service's callback, following no redirect blindly.
import { createServer } from 'node:net';
import type { SandboxState } from '../../src/sandbox/index.ts';
import { openConsent, submitConsent, type SubmitOptions } from '../sandbox/helpers.ts';
import { startApp, type StartOptions, type TestApp } from './app.ts';
import type { Dialect } from './databases.ts';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The service in sandbox mode, listening where its PUBLIC_BASE_URL says. */
export async function startConnectApp(dialect: Dialect, options: StartOptions = {}): Promise<TestApp & { sandbox: SandboxState }> {
  const port = await freePort();
  const t = await startApp(dialect, { ...options, env: { PORT: String(port), JOB_POLL_INTERVAL_MS: '20', RATE_LIMIT_PER_MINUTE: '100000', ...options.env } });
  const sandbox = t.runtime.deps.sandbox;
  if (!sandbox) throw new Error('the service is not in sandbox mode');
  return Object.assign(t, { sandbox });
}

export interface ConnectWalk {
  /** The service callback's answer. */
  response: Response;
  /** Its Location, when it redirected. */
  location: URL | null;
  callbackUrl: URL;
}

/** GET /connect/{platform}, then the consent page as a browser, then the callback. */
export async function walkConnect(t: TestApp, key: string, platform: string, query: Record<string, string> = {}, consent: SubmitOptions = {}): Promise<ConnectWalk> {
  const start = await t.request(`/api/v1/connect/${platform}?${new URLSearchParams(query).toString()}`, { key });
  if (start.status !== 200) throw new Error(`GET /connect/${platform} answered ${start.status}: ${await start.text()}`);
  const { authUrl } = (await start.json()) as { authUrl: string };
  const callbackUrl = await submitConsent(await openConsent(authUrl), consent);
  return { ...(await followCallback(callbackUrl)), callbackUrl };
}

export async function followCallback(callbackUrl: URL): Promise<{ response: Response; location: URL | null }> {
  const response = await fetch(callbackUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  return { response, location: location ? new URL(location) : null };
}

export const CLIENT_REDIRECT = 'https://client.example/connected';
