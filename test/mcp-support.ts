// MCP test helpers: the SDK's own client over Streamable HTTP (the service's /mcp) or over stdio
// (a spawned `socialapi mcp`), and the tool result read back as the data or the error it carries.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestApp } from './harness/app.ts';
import { BIN, ROOT } from './harness/cli.ts';

export interface McpClient {
  client: Client;
  /** The stdio server's stderr so far (empty over HTTP). */
  stderr(): string;
  close(): Promise<void>;
}

/** `toolsets` goes in the URL (`/mcp?toolsets=…`); absent, the server lists its default set. */
export async function httpClient(t: Pick<TestApp, 'url'>, key: string | null, headers: Record<string, string> = {}, toolsets?: string): Promise<McpClient> {
  const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp${toolsets === undefined ? '' : `?toolsets=${encodeURIComponent(toolsets)}`}`), { requestInit: { headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } } });
  const client = new Client({ name: 'socialapi-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => '', close: () => client.close() };
}

/** The environment a `socialapi mcp` next to the test app needs: its store, data folder and address. */
export function storeEnv(t: Pick<TestApp, 'config' | 'database'>): Record<string, string> {
  return {
    DATABASE_URL: t.database.url,
    DATA_DIR: t.database.dataDir,
    PORT: String(t.config.port),
    PUBLIC_BASE_URL: t.config.publicBaseUrl,
    RATE_LIMIT_PER_MINUTE: String(t.config.rateLimitPerMinute),
    LOG_LEVEL: 'warn',
  };
}

export async function stdioClient(key: string, env: Record<string, string>, args: string[] = []): Promise<McpClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SOCIALAPI_API_KEY: key, ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'socialapi-test', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`socialapi mcp did not start: ${(error as Error).message}; stderr: ${stderr}`, { cause: error });
  }
  return { client, stderr: () => stderr, close: () => client.close() };
}

export interface ToolError {
  status: number;
  code?: string;
  message: string;
  retryAfterSeconds?: number;
}

/** Calls a tool and returns the data of its result; an error result throws with what it carries. */
export async function callOk<T = Record<string, unknown>>(mcp: McpClient, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  if (result.isError) throw new Error(`${name} failed: ${text}`);
  return JSON.parse(text) as T;
}

/** Calls a tool that must fail, and returns its error. */
export async function callError(mcp: McpClient, name: string, args: Record<string, unknown> = {}): Promise<ToolError> {
  const result = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
  if (!result.isError) throw new Error(`${name} succeeded: ${text}`);
  return JSON.parse(text) as ToolError;
}

interface OpenApiDoc {
  paths: Record<string, Record<string, { operationId: string }>>;
}

/** Every operation of the served API document: [method, path, operationId]. */
export async function operations(t: Pick<TestApp, 'url'>): Promise<Array<{ method: string; path: string; operationId: string }>> {
  const doc = (await (await fetch(`${t.url}/api/v1/openapi.json`)).json()) as OpenApiDoc;
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, operationId: op.operationId })));
}

interface ServerEntry {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
}

/** The JSON blocks `socialapi mcp config` prints, each one's `mcpServers.socialapi`. */
export function printedEntries(stdout: string): ServerEntry[] {
  const blocks = stdout.match(/^\{\n[\s\S]*?\n\}$/gm) ?? [];
  return blocks.map((block) => (JSON.parse(block) as { mcpServers: { socialapi: ServerEntry } }).mcpServers.socialapi);
}

/** A client started from a pasted configuration entry, the key put where the placeholder is. */
export async function clientFromEntry(entry: ServerEntry, key: string): Promise<McpClient> {
  const fill = (record: Record<string, string> = {}) => Object.fromEntries(Object.entries(record).map(([name, value]) => [name, value.replace('sk_…', key)]));
  if (entry.url) {
    const client = new Client({ name: 'socialapi-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: fill(entry.headers) } }));
    return { client, stderr: () => '', close: () => client.close() };
  }
  if (!entry.command) throw new Error('the entry has neither url nor command');
  const transport = new StdioClientTransport({ command: entry.command, args: entry.args ?? [], env: { PATH: process.env.PATH ?? '', ...fill(entry.env) }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'socialapi-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}
