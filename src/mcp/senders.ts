// How a tool call reaches its route: in the same process through Fastify's inject (the request
// runs the whole route: auth hook, rate limit, validation, handler), or over HTTP to a running
// service (`socialapi mcp --url`). Either way the caller's own bearer token goes with it.
import { API_PREFIX } from '../http/openapi.ts';
import type { Api } from '../http/types.ts';
import type { ApiAnswer, ApiRequest } from './call.ts';

export type ApiSender = (request: ApiRequest, bearer: string) => Promise<ApiAnswer>;

/** The header that marks an in-process call (see InternalBearer), or nothing. */
export interface Channel {
  header: string;
  secret: string;
}

function headersFor(request: ApiRequest, bearer: string, channel: Channel | null = null): Record<string, string> {
  return {
    ...request.headers,
    ...(channel ? { [channel.header]: channel.secret } : {}),
    authorization: `Bearer ${bearer}`,
    ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
  };
}

/** `channel` lets bearers through that the API takes only from inside the process (MCP access tokens). */
export function injectSender(app: Api, channel: Channel | null = null): ApiSender {
  return async (request, bearer) => {
    const response = await app.inject({
      method: request.method as 'GET',
      url: `${API_PREFIX}${request.path}`,
      headers: headersFor(request, bearer, channel),
      ...(request.body === undefined ? {} : { payload: JSON.stringify(request.body) }),
    });
    const retryAfter = response.headers['retry-after'];
    return {
      status: response.statusCode,
      contentType: String(response.headers['content-type'] ?? ''),
      body: response.rawPayload,
      retryAfter: retryAfter === undefined ? null : String(retryAfter),
    };
  };
}

/** `baseUrl` is the service's address without /api/v1 (http://127.0.0.1:3000). */
export function fetchSender(baseUrl: string): ApiSender {
  const root = baseUrl.replace(/\/+$/, '');
  return async (request, bearer) => {
    const response = await fetch(`${root}${API_PREFIX}${request.path}`, {
      method: request.method,
      headers: headersFor(request, bearer),
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      redirect: 'manual',
    });
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      body: Buffer.from(await response.arrayBuffer()),
      retryAfter: response.headers.get('retry-after'),
    };
  };
}
