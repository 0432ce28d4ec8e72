// Streamable HTTP at /mcp, on the API server itself. Stateless: every POST carries its JSON-RPC
// message and gets its JSON answer, so any API node can take any request and nothing is kept
// between them (no sessions, no server-sent stream: GET and DELETE answer 405). The bearer is
// checked before the body is read; each tool call then runs its route in this process with the
// same bearer, so the route's own checks apply, its rate limit included. Every other message
// (initialize, tools/list, notifications, a batch's members) spends one request of the same
// per-key budget here at the door (issue 29, point 9), so no MCP request is free. The OAuth endpoints a remote client uses to get
// an access token are registered here too (src/mcp/oauth/).
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator, InternalBearer } from '../http/caller.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import { ApiError, errors } from '../http/errors.ts';
import type { Api } from '../http/types.ts';
import { jsonBodyLimit } from '../modules/media/routes/create-media.ts';
import { accessTokenBearer, apiKeyBearer, verifyBearer, wwwAuthenticate, type BearerKind, type McpPrincipal } from './bearer.ts';
import { oauthRoutes } from './oauth/routes.ts';
import { MCP_PATH, oauthUrls } from './oauth/urls.ts';
import { originPolicy } from './origin.ts';
import { injectSender } from './senders.ts';
import { catalogCache, createMcpServer } from './server.ts';
import { toolsFromOpenApi, type ApiTool } from './tools.ts';
import { parseToolsets, ToolsetError } from './toolsets.ts';
import type { OpenApiDocument } from './openapi-shape.ts';

export { MCP_PATH };

declare module 'fastify' {
  interface FastifyRequest {
    mcpPrincipal?: McpPrincipal;
  }
}

function webHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/**
 * The requests of a POST body the door counts: its JSON-RPC messages but tools/call, whose route
 * counts it (so the tool's result says 429 with its Retry-After, as the API would); at least one.
 */
export function messagesToCount(body: unknown): number {
  const messages = Array.isArray(body) ? (body as unknown[]) : [body];
  const counted = messages.filter((m) => !(typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'tools/call')).length;
  return messages.length === 0 ? 1 : counted;
}

/** `accessTokens` is the API's own check of MCP access tokens, also used here at the door. */
export async function registerMcpHttp(app: Api, authenticator: Authenticator, accessTokens: InternalBearer, limiter: RateLimiter): Promise<void> {
  const { config } = app.deps;
  const origins = originPolicy(config.publicBaseUrl, config.mcpAllowedOrigins);
  const urls = oauthUrls(config.publicBaseUrl);
  const kinds: BearerKind[] = [apiKeyBearer(authenticator), accessTokenBearer(accessTokens.authenticator, (token) => accessTokens.accepts(token))];
  const send = injectSender(app, accessTokens);
  await app.register(oauthRoutes(urls));
  let tools: ApiTool[] | null = null;
  // Built on first use: the document exists once every route is registered.
  const allTools = () => (tools ??= toolsFromOpenApi(app.swagger() as OpenApiDocument));
  const catalogFor = catalogCache(allTools);
  const toolsetsOf = (request: FastifyRequest) => {
    const { toolsets } = request.query as { toolsets?: unknown };
    try {
      return parseToolsets(typeof toolsets === 'string' ? toolsets : undefined, [...new Set(allTools().map((tool) => tool.toolset))]);
    } catch (error) {
      if (error instanceof ToolsetError) throw new ApiError(400, error.message);
      throw error;
    }
  };

  async function guard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!origins.allows(request.headers.origin)) throw new ApiError(403, `Origin ${request.headers.origin ?? ''} is not allowed to use ${MCP_PATH}; add it to MCP_ALLOWED_ORIGINS`);
    const principal = await verifyBearer(kinds, request.headers.authorization);
    if (!principal) {
      const sent = request.headers.authorization !== undefined;
      reply.header('www-authenticate', wwwAuthenticate(urls.protectedResourceMetadata, sent));
      throw errors.unauthorized(sent ? 'Unknown, expired or revoked API key or access token' : 'Missing API key: send Authorization: Bearer sk_…, or connect through OAuth (see WWW-Authenticate)');
    }
    request.mcpPrincipal = principal;
  }

  async function charge(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const principal = request.mcpPrincipal;
    if (!principal) throw errors.unauthorized();
    const count = request.method === 'POST' ? messagesToCount(request.body) : 1;
    if (count === 0) return;
    const refusal = await limiter.charge(request, reply, principal.caller, count);
    if (refusal) throw refusal;
  }

  app.route({
    method: 'POST',
    url: MCP_PATH,
    // base64 media uploads travel in tool arguments: as much as POST /media takes as JSON.
    bodyLimit: jsonBodyLimit(config.mediaMaxBytes) + 64 * 1024,
    schema: { hide: true },
    onRequest: guard,
    preHandler: charge,
    async handler(request, reply) {
      const principal = request.mcpPrincipal;
      if (!principal) throw errors.unauthorized();
      const server = createMcpServer(catalogFor(toolsetsOf(request)), send, principal.credential);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      try {
        await server.connect(transport);
        const answer = await transport.handleRequest(new Request(`http://localhost${MCP_PATH}`, { method: 'POST', headers: webHeaders(request) }), { parsedBody: request.body });
        reply.code(answer.status);
        answer.headers.forEach((value, name) => void reply.header(name, value));
        const body = await answer.text();
        return reply.send(body === '' ? undefined : body);
      } finally {
        await server.close();
      }
    },
  });

  // No server-sent stream and no sessions to end (stateless): what the specification allows.
  app.route({
    method: ['GET', 'DELETE'],
    url: MCP_PATH,
    schema: { hide: true },
    onRequest: guard,
    preHandler: charge,
    handler: async (_request, reply) => reply.code(405).header('allow', 'POST').send({ error: { message: `${MCP_PATH} takes POST only (stateless Streamable HTTP)` } }),
  });
}
