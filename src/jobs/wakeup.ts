// Wake-ups: a worker sleeps until the next due job or a signal that new work was committed.
// In one process that signal is an event; across processes on PostgreSQL it is LISTEN/NOTIFY
// (a NOTIFY sent inside a transaction is delivered only when it commits). SQLite has no
// cross-process signal: a separate worker process falls back to its poll interval there.
import { EventEmitter } from 'node:events';
import type { Store } from '../db/database.ts';
import { listenChannel, type Subscription } from '../db/listen.ts';

export type { Subscription };

export const JOBS_CHANNEL = 'socialapi_jobs';

const local = new EventEmitter();
local.setMaxListeners(0);

/**
 * Tells this process's workers that a job was enqueued. Other processes hear it on PostgreSQL
 * from the NOTIFY that enqueue() sends with the insert (delivered when the transaction commits).
 */
export function wakeLocalWorkers(): void {
  local.emit('wake');
}

/** Calls `onWake` on every signal until closed; keeps a LISTEN connection alive on PostgreSQL. */
export function subscribeWakeups(store: Store, onWake: () => void, onError: (error: unknown) => void): Subscription {
  local.on('wake', onWake);
  const channel = listenChannel(store, JOBS_CHANNEL, {
    onNotify: onWake,
    onListening: onWake, // anything committed while we were not listening
    onLost: onError,
  });
  return {
    async close() {
      local.off('wake', onWake);
      await channel.close();
    },
  };
}
