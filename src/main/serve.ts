// `socialapi serve`: the API and (unless --no-worker) a worker in one process.
import { buildApp } from '../app.ts';
import { buildJobRegistry, queueStandingJobs } from '../composition.ts';
import type { Config } from '../config.ts';
import { describeTarget } from '../db/database.ts';
import { createLogger } from '../http/logging.ts';
import { Worker } from '../jobs/worker.ts';
import { jobOutcomeObservers } from '../metrics/job-metrics.ts';
import { serveMetricsPort } from '../metrics/server.ts';
import { openRuntime, StartupError } from '../runtime.ts';
import { bootstrapIfEmpty } from './bootstrap.ts';
import { onShutdownSignal } from './shutdown.ts';

export async function serve(config: Config, options: { worker: boolean; watchParent?: boolean | undefined }): Promise<void> {
  const log = createLogger(config.logLevel);
  const runtime = await openRuntime(config);
  const { deps } = runtime;
  const app = await buildApp(deps, { redis: runtime.redis, logger: log });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close();
    await runtime.close();
    throw listenFailure(error, config) ?? error;
  }
  const metricsServer = await serveMetricsPort(deps.metrics, config.metrics).catch(async (error: unknown) => {
    await app.close();
    await runtime.close();
    throw error;
  });
  // Only once the port is ours: a first key created by a start that then failed to listen
  // would never be shown.
  const first = await bootstrapIfEmpty(deps.store.db, deps.clock);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // PORT=0 (tests) picks a free port: show the one really taken.
  const baseUrl = config.port === 0 ? `http://${config.host}:${port}` : config.publicBaseUrl;

  const worker = options.worker
    ? new Worker({ store: deps.store, registry: buildJobRegistry(deps), clock: deps.clock, log, ...config.jobs, ...jobOutcomeObservers(deps.metrics) })
    : null;
  if (worker) await queueStandingJobs(deps);
  worker?.start();

  // Before the banner: whoever reads it may signal at once, and until a listener exists a
  // SIGTERM kills the process the hard way.
  onShutdownSignal(log, async () => {
    await app.close();
    await worker?.stop();
    await metricsServer?.close();
    await runtime.close();
  }, { watchParent: options.watchParent ?? false });

  const lines = [
    '',
    `socialapi is listening on ${baseUrl}  (store: ${describeTarget(config.database)}; platforms: ${config.sandbox ? 'sandbox' : 'live'}; worker: ${worker ? 'on' : 'off'})`,
  ];
  if (first) {
    lines.push(
      `A first organization (${first.organizationId}) and its API key were created. The key is shown only this once:`,
      '',
      `    ${first.key}`,
      '',
      'Try it:',
      `    curl -H "Authorization: Bearer ${first.key}" ${baseUrl}/api/v1/accounts`,
      `The dashboard (approvals, posts, accounts, keys, webhooks): npx socialapi dashboard link --org ${first.organizationId}  prints a sign-in link`,
    );
  } else {
    lines.push('Get an API key with:  npx socialapi orgs list  then  npx socialapi keys create --org ORG_ID');
    lines.push('Sign in to the dashboard with the link that  npx socialapi dashboard link --org ORG_ID  prints');
  }
  lines.push(`API document: ${baseUrl}/api/v1/openapi.json`);
  if (metricsServer) lines.push(`Metrics: ${metricsServer.url}`);
  else if (config.metrics.onApiPort) lines.push(`Metrics: ${baseUrl}/metrics`);
  lines.push('');
  process.stdout.write(`${lines.join('\n')}\n`);}

/** The usual reasons a port cannot be taken, as one line; null for anything else. */
function listenFailure(error: unknown, config: Config): StartupError | null {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  const where = `port ${config.port} on ${config.host}`;
  switch (code) {
    case 'EADDRINUSE':
      return new StartupError(`${where} is in use; set PORT to another port`);
    case 'EACCES':
      return new StartupError(`${where} needs privileges this process does not have; set PORT to 1024 or above`);
    case 'EADDRNOTAVAIL':
      return new StartupError(`${config.host} is not an address of this machine; set HOST to one that is (127.0.0.1 or 0.0.0.0)`);
    default:
      return null;
  }
}
