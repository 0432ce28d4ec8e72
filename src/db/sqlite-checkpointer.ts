// Checkpoints a SQLite file from a thread of its own. SQLite's automatic checkpoint runs inside
// the commit that crosses 1,000 WAL pages: it copies those pages into the database file and
// syncs it, 4-5 ms during which the event loop (and every request in flight) stood still, once
// every hundred commits or so: that was the p99 of a direct-message send. The process's
// connection turns the automatic checkpoint off only once this thread runs; should the thread
// fail, the connection turns it back on.
import { Worker } from 'node:worker_threads';

/** How often the thread copies the WAL back: small enough that the WAL stays a few MB. */
const INTERVAL_MS = 100;
const AUTOMATIC_PAGES = 1000;

export interface Checkpointer {
  /** Resolves once the thread has closed its connection and ended. */
  stop(): Promise<void>;
}

export function startCheckpointer(file: string, setAutomatic: (pages: number) => void): Checkpointer {
  const thread = new Worker(new URL('./sqlite-checkpoint-thread.ts', import.meta.url), { workerData: { file, intervalMs: INTERVAL_MS } });
  // A checkpointer never keeps the process alive.
  thread.unref();
  let running = true;
  const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
  thread.on('message', (message) => {
    if (message === 'ready' && running) setAutomatic(0);
  });
  const fallBack = () => {
    if (running) setAutomatic(AUTOMATIC_PAGES);
    running = false;
  };
  thread.on('error', fallBack);
  thread.on('exit', fallBack);
  return {
    stop() {
      if (running) {
        running = false;
        // Held while it stops: a process awaiting the stop must not end for want of work.
        thread.ref();
        thread.postMessage('stop');
      }
      return exited;
    },
  };
}
