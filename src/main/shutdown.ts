// Graceful shutdown on SIGTERM/SIGINT: stop taking work, let running work finish (bounded by the
// worker's shutdown timeout), release the rest. A second signal exits at once.
import type { FastifyBaseLogger } from 'fastify';

export function onShutdownSignal(log: FastifyBaseLogger, shutdown: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'shutting down');
    shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
