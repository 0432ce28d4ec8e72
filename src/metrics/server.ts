// /metrics on a port of its own (METRICS_PORT): how a `worker` process, which has no API port,
// shows its job metrics, and how `serve` keeps them off the public API port. A bare node:http
// server: it answers GET /metrics and 404 or 405 for anything else.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { MetricsConfig } from '../config.ts';
import type { Metrics } from './metrics.ts';
import { StartupError } from '../runtime.ts';
import { METRICS_PATH, scrapeAllowed } from './scrape-access.ts';

export interface MetricsServer {
  /** Where it listens, e.g. http://127.0.0.1:9464/metrics. */
  url: string;
  close(): Promise<void>;
}

function answer(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify({ error: { message } }));
}

export async function startMetricsServer(metrics: Metrics, config: MetricsConfig & { port: number }): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== METRICS_PATH) return answer(res, 404, 'not found; metrics are at /metrics');
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(res, 405, 'use GET', { allow: 'GET, HEAD' });
    if (!scrapeAllowed(config.token, req.headers.authorization)) return answer(res, 401, 'METRICS_TOKEN is required as a Bearer token', { 'www-authenticate': 'Bearer' });
    metrics.scrape().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'content-type': contentType });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => answer(res, 503, 'metrics could not be collected'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  return {
    url: `http://${host}:${port}${METRICS_PATH}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Starts the METRICS_PORT server when one is configured (null otherwise). A port that cannot be
 * taken stops the start with one line, as the API port does.
 */
export async function serveMetricsPort(metrics: Metrics | undefined, config: MetricsConfig): Promise<MetricsServer | null> {
  if (!metrics || config.port === null) return null;
  try {
    return await startMetricsServer(metrics, { ...config, port: config.port });
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : 'error';
    throw new StartupError(`METRICS_PORT ${config.port} on ${config.host} cannot be taken (${code})`);
  }
}
