// `socialapi mcp`: the tool server on stdin/stdout, for MCP clients that start it themselves
// (Claude Desktop, Cursor). The caller is the API key in SOCIALAPI_API_KEY. Either the tools run
// their routes in this process against the configured store, as `serve` does (OAuth callbacks,
// the sandbox and post delivery stay with the running `socialapi serve` that shares the store),
// or, with --url, they call a running service over HTTP. Nothing but MCP messages goes to stdout:
// logs go to stderr.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildApp } from '../app.ts';
import { createAuthenticator } from '../composition.ts';
import type { Config } from '../config.ts';
import { createLogger } from '../http/logging.ts';
import { messageOf } from '../lib/errors.ts';
import { displayPrefix, KEY_PATTERN } from '../modules/keys/api-key.ts';
import { platformApiBase } from '../platforms/base-url.ts';
import { openRuntime, StartupError } from '../runtime.ts';
import { onShutdownSignal } from '../main/shutdown.ts';
import type { OpenApiDocument } from './openapi-shape.ts';
import { fetchSender, injectSender, type ApiSender } from './senders.ts';
import { catalogOf, createMcpServer } from './server.ts';
import { toolsFromOpenApi } from './tools.ts';
import { parseToolsets, ToolsetError } from './toolsets.ts';

export const API_KEY_VARIABLE = 'SOCIALAPI_API_KEY';

export interface StdioOptions {
  /** The key tools act with (SOCIALAPI_API_KEY). */
  apiKey: string | undefined;
  /** A running service to call instead of the store. */
  url?: string | undefined;
  /** The toolsets to list, as --toolsets or SOCIALAPI_MCP_TOOLSETS give them; absent: the default set. */
  toolsets?: string | undefined;
  watchParent?: boolean | undefined;
}

interface Backend {
  doc: OpenApiDocument;
  send: ApiSender;
  close(): Promise<void>;
}

/** The key as a line may name it: its display prefix, never the whole key (nor most of a short one). */
function keyHint(key: string): string {
  return `${KEY_PATTERN.test(key) ? displayPrefix(key) : key.slice(0, Math.min(3, Math.floor(key.length / 2)))}…`;
}

function unknownKey(where: string, apiKey: string): StartupError {
  return new StartupError(`${API_KEY_VARIABLE} (${keyHint(apiKey)}) is not a valid key of ${where} (unknown or revoked)`);
}

async function remoteBackend(url: string, apiKey: string): Promise<Backend> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StartupError(`--url must be the service's address, such as http://127.0.0.1:3000 (got "${url}")`);
  }
  const base = parsed.href.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  let doc: OpenApiDocument;
  try {
    // The running service's own document: its tools are its routes, whatever version it runs.
    const response = await fetch(`${base}/api/v1/openapi.json`);
    if (!response.ok) throw new Error(`GET /api/v1/openapi.json answered ${response.status}`);
    doc = (await response.json()) as OpenApiDocument;
  } catch (error) {
    throw new StartupError(`cannot read the API document of ${base}: ${messageOf(error)}`);
  }
  // The key is checked now, as the local mode checks it in the store: a client that starts us
  // with a wrong key learns it at once, not from the first tool call (one request of its budget).
  let status: number;
  try {
    const probe = await fetch(`${base}/api/v1/webhooks`, { headers: { authorization: `Bearer ${apiKey}` }, redirect: 'manual' });
    await probe.body?.cancel();
    status = probe.status;
  } catch (error) {
    throw new StartupError(`cannot reach ${base}: ${messageOf(error)}`);
  }
  if (status === 401) throw unknownKey(base, apiKey);
  return { doc, send: fetchSender(base), close: () => Promise.resolve() };
}

async function localBackend(config: Config, apiKey: string): Promise<Backend> {
  // Platform calls go where `serve` sends them; this process never serves the sandbox itself
  // (its state file belongs to the running service).
  const runtime = await openRuntime({ ...config, platformApiBase: platformApiBase(config) });
  const log = createLogger(config.logLevel, process.stderr);
  const app = await buildApp(runtime.deps, { redis: runtime.redis, logger: log });
  const authenticator = createAuthenticator(runtime.deps);
  const caller = await authenticator.authenticate(apiKey).finally(() => authenticator.close());
  const close = async () => {
    await app.close();
    await runtime.close();
  };
  if (!caller) {
    await close();
    throw unknownKey('this store', apiKey);
  }
  return { doc: app.swagger() as OpenApiDocument, send: injectSender(app), close };
}

export async function runMcpStdio(config: () => Config, options: StdioOptions): Promise<void> {
  const apiKey = options.apiKey?.trim();
  if (!apiKey) throw new StartupError(`set ${API_KEY_VARIABLE} to an API key (sk_…): the tools act as that key's organization`);
  const backend = options.url ? await remoteBackend(options.url, apiKey) : await localBackend(config(), apiKey);
  const tools = toolsFromOpenApi(backend.doc);
  let choice;
  try {
    choice = parseToolsets(options.toolsets, [...new Set(tools.map((tool) => tool.toolset))]);
  } catch (error) {
    await backend.close();
    if (error instanceof ToolsetError) throw new StartupError(error.message);
    throw error;
  }
  const server = createMcpServer(catalogOf(tools, choice), backend.send, apiKey);
  const log = createLogger('info', process.stderr);
  let closed = false;
  const shutdown = async () => {
    if (closed) return;
    closed = true;
    await server.close();
    await backend.close();
  };
  // The client ends the session by closing our stdin (the specification's stdio shutdown).
  process.stdin.once('end', () => void shutdown().then(() => process.exit(0)));
  onShutdownSignal(log, shutdown, { watchParent: options.watchParent ?? false });
  await server.connect(new StdioServerTransport());
}
