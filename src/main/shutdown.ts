// Graceful shutdown on SIGTERM/SIGINT: stop taking work, let running work finish (bounded by the
// worker's shutdown timeout), release the rest. A second signal exits at once.
import type { FastifyBaseLogger } from 'fastify';

export interface ShutdownOptions {
  /** Stop as on SIGTERM when the parent process goes away (see `watchParent`). */
  watchParent?: boolean;
}

export function onShutdownSignal(log: FastifyBaseLogger, shutdown: () => Promise<void>, options: ShutdownOptions = {}): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals | 'parent exited') => {
    if (stopping) {
      if (signal === 'parent exited') return; // the shell npm signalled; we are stopping anyway
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
  if (options.watchParent) watchParent(() => handler('parent exited'));
}

/**
 * `npm start` and npx run the command through a shell: npm -> sh -c -> node. npm passes a SIGTERM
 * it receives to that shell only, which dies of it without passing it on, and node would run on
 * alone under init. Under npm, a parent that goes away therefore means: stop.
 */
export function watchParent(onGone: () => void): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, 200);
  timer.unref();
}
