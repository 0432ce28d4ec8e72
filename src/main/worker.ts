// `socialapi worker`: a worker process without the API.
import { buildJobRegistry, queueStandingJobs } from '../composition.ts';
import type { Config } from '../config.ts';
import { createLogger } from '../http/logging.ts';
import { Worker } from '../jobs/worker.ts';
import { jobOutcomeObservers } from '../metrics/job-metrics.ts';
import { serveMetricsPort } from '../metrics/server.ts';
import { openRuntime } from '../runtime.ts';
import { onShutdownSignal } from './shutdown.ts';

export async function runWorker(config: Config, options: { watchParent?: boolean | undefined } = {}): Promise<void> {
  const log = createLogger(config.logLevel);
  const runtime = await openRuntime(config);
  // A worker has no API port: METRICS_PORT is how its job metrics are scraped.
  const metricsServer = await serveMetricsPort(runtime.deps.metrics, config.metrics).catch(async (error: unknown) => {
    await runtime.close();
    throw error;
  });
  const worker = new Worker({ store: runtime.deps.store, registry: buildJobRegistry(runtime.deps), clock: runtime.deps.clock, log, ...config.jobs, ...jobOutcomeObservers(runtime.deps.metrics) });
  // The listener goes first: until one exists, a SIGTERM kills the process the hard way.
  onShutdownSignal(log, async () => {
    await worker.stop();
    await metricsServer?.close();
    await runtime.close();
  }, { watchParent: options.watchParent ?? false });
  await queueStandingJobs(runtime.deps);
  worker.start();
  log.info({ workerId: worker.id, ...(metricsServer ? { metrics: metricsServer.url } : {}) }, 'worker started');
}
