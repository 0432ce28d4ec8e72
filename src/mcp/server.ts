// The MCP server: tools/list answers the tools made from the API document, tools/call runs the
// tool's route as the connected caller. One server per connection (stdio) or per request
// (Streamable HTTP, stateless); the tools are computed once and shared.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { API_VERSION } from '../http/openapi.ts';
import { PLATFORM_NAMES_PHRASE } from '../platforms/registry.ts';
import { inputErrorResult, requestFor, resultOf, ToolInputError, unknownArgument, unreachableResult } from './call.ts';
import { messageOf } from '../lib/errors.ts';
import type { ApiSender } from './senders.ts';
import type { ApiTool } from './tools.ts';

const INSTRUCTIONS =
  `Tools of a social publishing API (${PLATFORM_NAMES_PHRASE}). Each tool is one API operation and answers ` +
  'what the API answers; an error result carries status, code and message. To connect an account, call start_connect and open its authUrl ' +
  'in a browser; list_accounts then shows it. Upload media with create_media (url or base64), then create_post with the account ids ' +
  '(publishNow: true to publish at once) and get_post to follow each target.';

export interface ToolCatalog {
  tools: ApiTool[];
  byName: Map<string, ApiTool>;
  /** What tools/list answers, computed once. */
  listed: Tool[];
}

export function catalogOf(tools: ApiTool[]): ToolCatalog {
  return {
    tools,
    byName: new Map(tools.map((tool) => [tool.name, tool])),
    listed: tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations })),
  };
}

/** Runs one tool as the caller behind `bearer`. */
export async function callTool(catalog: ToolCatalog, send: ApiSender, bearer: string, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const tool = catalog.byName.get(name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const unknown = unknownArgument(tool.inputSchema, args);
  if (unknown !== null) return inputErrorResult(unknown);
  let request;
  try {
    request = requestFor(tool.operation, args);
  } catch (error) {
    if (error instanceof ToolInputError) return inputErrorResult(error.message);
    throw error;
  }
  let answer;
  try {
    answer = await send(request, bearer);
  } catch (error) {
    return unreachableResult(`the service could not be reached: ${messageOf(error)}`);
  }
  return resultOf(answer, request);
}

export function createMcpServer(catalog: ToolCatalog, send: ApiSender, bearer: string): Server {
  const server = new Server({ name: 'socialapi', title: 'Social publishing API', version: API_VERSION }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: catalog.listed }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(catalog, send, bearer, request.params.name, request.params.arguments ?? {}));
  return server;
}
