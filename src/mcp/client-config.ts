// `socialapi mcp config`: the configuration a user pastes into an MCP client, with this checkout's
// absolute paths filled in (the Node 24 running this command, bin/socialapi.js) and the service's
// address. The key stays a placeholder: the command never prints a secret.
import { fileURLToPath } from 'node:url';

export const KEY_PLACEHOLDER = 'sk_…';
const BIN = fileURLToPath(new URL('../../bin/socialapi.js', import.meta.url));

export function clientConfig(serviceUrl: string): string {
  const base = serviceUrl.replace(/\/+$/, '');
  const stdio = { mcpServers: { socialapi: { command: process.execPath, args: [BIN, 'mcp', '--url', base], env: { SOCIALAPI_API_KEY: KEY_PLACEHOLDER } } } };
  const http = { mcpServers: { socialapi: { url: `${base}/mcp`, headers: { Authorization: `Bearer ${KEY_PLACEHOLDER}` } } } };
  const remote = { mcpServers: { socialapi: { url: `${base}/mcp` } } };
  return [
    `Over stdio, for Claude Desktop (claude_desktop_config.json) or Cursor (~/.cursor/mcp.json); put your API key in place of ${KEY_PLACEHOLDER}:`,
    JSON.stringify(stdio, null, 2),
    '',
    `Over Streamable HTTP, for Cursor (~/.cursor/mcp.json) and other clients that take a URL and headers:`,
    JSON.stringify(http, null, 2),
    '',
    `For a hosted client that connects through OAuth (it registers itself; you sign in to the dashboard and approve one organization), only the URL:`,
    JSON.stringify(remote, null, 2),
  ].join('\n');
}
