// Wake-ups: a worker sleeps until the next due job or a signal that new work was committed.
// The signal is a notice on the jobs channel (db/notices.ts): in one process an event; across
// processes on PostgreSQL the NOTIFY that enqueue() sends with the insert (delivered when the
// transaction commits). On SQLite nothing announces jobs across processes: a separate worker
// process falls back to its poll interval there.
import type { Store } from '../db/database.ts';
import { announceLocally, type Subscription } from '../db/notices.ts';

export type { Subscription };

export const JOBS_CHANNEL = 'socialapi_jobs';

/** Tells this process's workers that a job was enqueued. */
export function wakeLocalWorkers(): void {
  announceLocally(JOBS_CHANNEL);
}

/** Calls `onWake` on every signal until closed. */
export function subscribeWakeups(store: Pick<Store, 'notices'>, onWake: () => void, onError: (error: unknown) => void): Subscription {
  return store.notices.subscribe(JOBS_CHANNEL, {
    onNotify: onWake,
    onListening: onWake, // anything committed while we were not listening
    onLost: onError,
  });
}
