// sandboxPlugin: the platform simulator as a Fastify plugin. Mounted under a prefix of the
// service's app (`/sandbox`) or at the root of its own server (startSandbox). Everything it needs
// is set in its own encapsulated scope: body parsers, error and not-found handlers that answer
// in the shape of the platform whose host was called, the fault hook and the journal. It serves
// the hosts and control routes of every module of the list (modules.ts). A state
// with a `stateFile` is restored from it here, saved after the requests that follow, and once
// more when the server closes.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isRawBody, registerBodyParsers } from './core/body.ts';
import { ControlError, registerControl } from './core/control.ts';
import { hasBigInt, jsonWithBigInts } from './core/json.ts';
import { maskAuthorization } from './core/journal.ts';
import { PlatformError } from './core/platform-error.ts';
import type { Host, RouteContext } from './core/router.ts';
import type { SandboxState, SandboxStateOptions } from './core/state.ts';
import type { Fault } from './core/faults.ts';
import type { SandboxModule } from './module.ts';
import { buildHosts } from './hosts.ts';
import { SANDBOX_MODULES } from './modules.ts';
import { SandboxState as ListedState } from './state.ts';

export interface SandboxPluginOptions extends SandboxStateOptions {
  /** The state to serve; pass one to keep a handle on it (tests, the service's sandbox mode). */
  state?: SandboxState | undefined;
}

interface Located {
  host: Host;
  path: string;
}

export async function sandboxPlugin(app: FastifyInstance, options: SandboxPluginOptions): Promise<void> {
  const state = options.state ?? new ListedState(options);
  state.openStateFile();
  app.addHook('onClose', () => state.flush());
  const hosts = buildHosts(SANDBOX_MODULES);
  // The shared headers, and those a module's platform requires, so a test sees the adapter sent them.
  const journalHeaders = [...new Set(['authorization', 'user-agent', 'content-type', 'content-range', ...SANDBOX_MODULES.flatMap((m: SandboxModule<string, object>) => m.journalHeaders ?? [])])];
  const locate = (request: FastifyRequest): Located | null => {
    const params = request.params as Record<string, string | undefined> | undefined;
    const host = params?.host ? hosts.get(params.host) : undefined;
    return host ? { host, path: `/${params?.['*'] ?? ''}` } : null;
  };

  await registerBodyParsers(app);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof PlatformError) return sendPlatformError(reply, error);
    const status = error.statusCode ?? 500;
    if (status >= 500) request.log.error({ err: error }, 'sandbox handler failed');
    if (error instanceof ControlError || !locate(request)) return reply.status(status).send({ error: { message: error.message } });
    const host = locate(request)?.host;
    if (!host) return reply.status(status).send({ error: { message: error.message } });
    return sendPlatformError(reply, status < 500 ? host.errors.badRequest(error.message) : host.errors.serverError(500));
  });
  app.setNotFoundHandler((request, reply) => reply.status(404).send({ error: { message: `The sandbox has no host or route for ${request.method} ${request.url}` } }));

  // onSend rather than onResponse: a caller that went away mid-request (a killed worker) gets no
  // onResponse, yet the platform did the work, and the journal must show it.
  app.addHook('onSend', async (request, reply, payload) => {
    // Any request may change the state (GETs too: Graph token exchanges, rate-limit windows).
    state.changed();
    const located = locate(request);
    if (!located) return payload;
    const body = isRawBody(request.body) ? { bytes: request.body.size } : request.body;
    const headers: Record<string, string> = {};
    for (const name of journalHeaders) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = name === 'authorization' ? maskAuthorization(value) : value;
    }
    state.journal.record({
      at: new Date(state.clock.now()).toISOString(),
      method: request.method,
      host: located.host.name,
      path: located.path,
      query: request.query,
      body,
      headers,
      status: reply.statusCode,
    });
    return payload;
  });

  registerControl(app, state);
  for (const module of SANDBOX_MODULES) module.control?.(app, state);

  const dispatch = async (request: FastifyRequest, reply: FastifyReply) => {
    const located = locate(request);
    if (!located) return reply.status(404).send({ error: { message: `The sandbox does not simulate this host` } });
    const { host, path } = located;
    const { delayMs, answer } = state.faults.take(host.name, request.method, path);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (answer) throw faultError(host, answer);
    const match = host.match(request.method, path);
    if (!match || 'allowed' in match) throw host.errors.notFound(request.method, path);
    const ctx: RouteContext = {
      state,
      request,
      reply,
      host: host.name,
      method: request.method,
      path: match.path,
      version: match.version,
      params: match.params,
      query: flatQuery(request.query),
      body: request.body,
      baseUrl: `${request.protocol}://${request.host}${app.prefix}`,
    };
    const result = await match.route(ctx);
    if (reply.sent) return reply;
    if (hasBigInt(result)) return reply.type('application/json; charset=UTF-8').send(jsonWithBigInts(result));
    return reply.send(result);
  };
  app.all('/:host', dispatch);
  app.all('/:host/*', dispatch);
}

function sendPlatformError(reply: FastifyReply, error: PlatformError): FastifyReply {
  return reply.status(error.status).headers(error.headers).send(error.body);
}

function faultError(host: Host, fault: Fault): PlatformError {
  switch (fault.kind) {
    case 'rate_limit':
      return fault.body !== undefined ? new PlatformError(fault.status ?? 429, fault.body) : host.errors.rateLimited();
    case 'server_error':
      return fault.body !== undefined ? new PlatformError(fault.status ?? 500, fault.body) : host.errors.serverError(fault.status ?? 500);
    case 'error':
    case 'delay':
      return fault.body !== undefined ? new PlatformError(fault.status ?? 400, fault.body) : host.errors.custom(fault);
  }
}

function flatQuery(query: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!query || typeof query !== 'object') return out;
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    const last: unknown = Array.isArray(value) ? value.at(-1) : value;
    if (typeof last === 'string') out[key] = last;
  }
  return out;
}
