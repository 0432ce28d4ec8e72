// buildApp(deps): the Fastify instance with every route, no listen(). Tests and the server both
// build it this way. The routes, schemas and authenticator come from the composition root.
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { registerAuth } from './http/auth.ts';
import { registerDraining } from './http/draining.ts';
import { registerBodyIdleTimeout } from './http/body-idle.ts';
import { clientErrorHandler, registerHostRequired } from './http/client-errors.ts';
import { ErrorBody, handleError, handleFrameworkError, handleNotFound, MAX_PARAM_LENGTH } from './http/errors.ts';
import { registerTextGuard } from './http/text-guard.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { registerStrictInput } from './http/strict-input.ts';
import { validatorCompiler } from './http/validation.ts';
import { createLogger, genReqId } from './http/logging.ts';
import { API_PREFIX, registerOpenApi } from './http/openapi.ts';
import { registerFrontPage } from './http/front-page.ts';
import { registerDocsPage } from './http/docs-page.ts';
import { registerProbes } from './http/probes.ts';
import { setSecurityHeaders } from './http/security-headers.ts';
import { registerHttpMetrics } from './metrics/http-metrics.ts';
import { SANDBOX_PREFIX } from './platforms/base-url.ts';
import { sandboxPlugin } from './sandbox/index.ts';
import { createRateLimiter, registerRateLimit } from './http/rate-limit.ts';
import { registerMcpHttp } from './mcp/http.ts';
import { appRoutes, createAuthenticator, createMcpAccessTokens, dashboard } from './composition.ts';
import type { AppDeps } from './deps.ts';
import type { Api } from './http/types.ts';
import { deferredCompilers } from './http/compile-on-first-use.ts';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';

export interface BuildOptions {
  /** Redis for the shared rate limit; null keeps it in memory. */
  redis?: Redis | null;
  /** The process's logger; by default one at the configured level on stdout. */
  logger?: FastifyBaseLogger;
}

export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<Api> {
  const logger = options.logger ?? createLogger(deps.config.logLevel);
  // Route schemas are compiled on first use (compile-on-first-use.ts): starting is not 4 s of CPU.
  const compilers = deferredCompilers();
  const app = Fastify({
    loggerInstance: logger,
    schemaController: { compilersFactory: { buildSerializer: compilers.buildSerializer } },
    genReqId,
    bodyLimit: 1024 * 1024,
    trustProxy: false,
    // Errors raised before any route (the router's, Node's parser's) answer in the error shape too.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: clientErrorHandler(logger),
    http: { requireHostHeader: false },
    // Requests arriving while the app closes answer in the error shape (draining.ts).
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('deps', deps);
  // The API speaks JSON (and multipart where a route says so); a text body is a 415, not a 400.
  app.removeContentTypeParser('text/plain');
  app.setErrorHandler(handleError);
  app.setNotFoundHandler(handleNotFound);
  if (deps.metrics) registerHttpMetrics(app, deps.metrics, deps.config.metrics);
  registerHostRequired(app);
  registerDraining(app);
  registerBodyIdleTimeout(app, deps.config.bodyIdleTimeoutMs);
  // Every answer's own headers, in one hook (each onSend hook is a step of every answer).
  app.addHook('onSend', async (request, reply) => {
    reply.header('request-id', request.id);
    setSecurityHeaders(reply);
  });

  await registerOpenApi(app);
  await registerDocsPage(app);
  for (const schema of appRoutes.schemas) app.addSchema(schema);
  app.setValidatorCompiler(compilers.validators(validatorCompiler([ErrorBody, ...appRoutes.schemas])));
  app.decorate('compileSchemas', () => compilers.compileAll());
  registerProbes(app);
  if (deps.sandbox) await app.register(sandboxPlugin, { prefix: SANDBOX_PREFIX, state: deps.sandbox });
  for (const route of appRoutes.root) route(app);
  await app.register(dashboard.plugin, { prefix: dashboard.prefix });

  // One authenticator (one key cache) for the API and /mcp; the API scope closes it.
  const authenticator = createAuthenticator(deps);
  // MCP access tokens: accepted by the API only on the tool calls /mcp makes inside this process.
  const accessTokens = createMcpAccessTokens(deps);
  // One per-key budget for the API and /mcp.
  const limiter = createRateLimiter(deps.config.rateLimitPerMinute, options.redis ?? null, deps.clock);
  await app.register(
    (api, _options, done) => {
      registerAuth(api, authenticator, accessTokens);
      registerTextGuard(api);
      registerRateLimit(api, limiter);
      registerStrictInput(api);
      registerIdempotency(api);
      api.get('/openapi.json', { schema: { hide: true }, config: { public: true } }, () => app.swagger());
      for (const route of appRoutes.api) route(api);
      done();
    },
    { prefix: API_PREFIX },
  );
  // The same operations as MCP tools, at /mcp, and its OAuth endpoints (src/mcp/http.ts).
  await registerMcpHttp(app, authenticator, accessTokens, limiter);
  registerFrontPage(app, dashboard.prefix);
  await app.ready();
  return app;
}
