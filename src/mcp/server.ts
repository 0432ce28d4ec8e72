// The MCP server: tools/list answers the tools made from the API document, tools/call runs the
// tool's route as the connected caller. One server per connection (stdio) or per request
// (Streamable HTTP, stateless); the tools are computed once and shared.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { API_VERSION } from '../http/openapi.ts';
import { PLATFORM_NAMES_PHRASE } from '../platforms/registry.ts';
import { inputErrorResult, requestFor, resultOf, ToolInputError, unknownArgument, unreachableResult } from './call.ts';
import { messageOf } from '../lib/errors.ts';
import { PLATFORM_OPTIONS_TOOL, platformOptionsResult, platformOptionsTool } from './platform-options.ts';
import type { ApiSender } from './senders.ts';
import type { ApiTool } from './tools.ts';
import { ALL_TOOLSETS, choiceKey, chosen, type ToolsetChoice } from './toolsets.ts';

/** The toolset that also lists get_platform_options (the tools that take platform options are there). */
const OPTIONS_TOOLSET = 'posts';

function instructions(listed: readonly string[], others: readonly string[]): string {
  const more = others.length
    ? `This connection lists the toolsets ${listed.join(', ')}; the others (${others.join(', ')}) are listed when the client asks for them ` +
      `(toolsets=NAME,… in the /mcp URL, --toolsets or SOCIALAPI_MCP_TOOLSETS for stdio; ${ALL_TOOLSETS} for every tool). `
    : '';
  return (
    `Tools of a social publishing API (${PLATFORM_NAMES_PHRASE}). Each tool is one API operation and answers ` +
    'what the API answers; an error result carries status, code and message. To connect an account, call start_connect and open its authUrl ' +
    'in a browser; list_accounts then shows it. Upload media with create_media (url or base64), then create_post with the account ids ' +
    `(publishNow: true to publish at once; ${PLATFORM_OPTIONS_TOOL} tells a platform's options) and get_post to follow each target. ${more}`
  ).trim();
}

export interface ToolCatalog {
  /** Every tool, listed or not. */
  tools: ApiTool[];
  byName: Map<string, ApiTool>;
  /** What tools/list answers, computed once per choice of toolsets. */
  listed: Tool[];
  instructions: string;
}

/** The catalog of the chosen toolsets (every one by default here: callers pass the client's choice). */
export function catalogOf(tools: ApiTool[], choice: ToolsetChoice = { all: true }): ToolCatalog {
  const toolsets = [...new Set(tools.map((tool) => tool.toolset))];
  const shown = tools.filter((tool) => chosen(choice, tool.toolset));
  const platformOptions = chosen(choice, OPTIONS_TOOLSET);
  const listedSets = toolsets.filter((set) => chosen(choice, set));
  return {
    tools,
    byName: new Map(tools.map((tool) => [tool.name, tool])),
    listed: [
      ...shown.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations })),
      ...(platformOptions ? [platformOptionsTool()] : []),
    ],
    instructions: instructions(listedSets, toolsets.filter((set) => !listedSets.includes(set))),
  };
}

/** Catalogs per choice of toolsets, each computed once from the same tools. */
export function catalogCache(tools: () => ApiTool[]): (choice: ToolsetChoice) => ToolCatalog {
  const catalogs = new Map<string, ToolCatalog>();
  return (choice) => {
    const key = choiceKey(choice);
    let catalog = catalogs.get(key);
    if (!catalog) catalogs.set(key, (catalog = catalogOf(tools(), choice)));
    return catalog;
  };
}

/** Runs one tool as the caller behind `bearer`. */
export async function callTool(catalog: ToolCatalog, send: ApiSender, bearer: string, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  if (name === PLATFORM_OPTIONS_TOOL) return platformOptionsResult(args);
  const tool = catalog.byName.get(name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  // A tool of a toolset the client did not choose still runs: the choice trims the list, not what the key may do.
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
  return resultOf(answer, request, tool.operation);
}

export function createMcpServer(catalog: ToolCatalog, send: ApiSender, bearer: string): Server {
  const server = new Server({ name: 'socialapi', title: 'Social publishing API', version: API_VERSION }, { capabilities: { tools: { listChanged: false } }, instructions: catalog.instructions });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: catalog.listed }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callTool(catalog, send, bearer, request.params.name, request.params.arguments ?? {}));
  return server;
}
