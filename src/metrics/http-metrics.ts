// Counts every HTTP answer of the app by method, route pattern and status, with its latency,
// and serves /metrics on the API port when METRICS=1. The route label is the pattern Fastify
// matched (/api/v1/posts/:id), never the raw URL, so the number of series stays bounded; a
// request no route matched is labelled "unmatched". Scrapes themselves are not counted.
import type { MetricsConfig } from '../config.ts';
import { errors } from '../http/errors.ts';
import type { Api } from '../http/types.ts';
import type { Metrics } from './metrics.ts';
import { METRICS_PATH, scrapeAllowed } from './scrape-access.ts';

// Node's parser accepts a few dozen methods; anything outside these shares one label.
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function registerHttpMetrics(app: Api, metrics: Metrics, config: MetricsConfig): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route !== METRICS_PATH) {
      metrics.httpRequest(METHODS.has(request.method) ? request.method : 'OTHER', route, reply.statusCode, reply.elapsedTime / 1000);
    }
    done();
  });
  if (!config.onApiPort) return;
  // Outside /api/v1: no API key, no rate limit, not in the API document nor the MCP tools.
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (!scrapeAllowed(config.token, request.headers.authorization)) {
      reply.header('www-authenticate', 'Bearer');
      throw errors.unauthorized('METRICS_TOKEN is required as a Bearer token');
    }
    const { contentType, body } = await metrics.scrape();
    return reply.type(contentType).send(body);
  });
}
