// Wake-ups: a worker sleeps until the next due job or a signal that new work was committed.
// The signal is a notice on the jobs channel (db/notices.ts): in one process an event; across
// processes on PostgreSQL the NOTIFY that enqueue() sends with the insert (delivered when the
// transaction commits). On SQLite nothing announces jobs across processes: a separate worker
// process falls back to its poll interval there.
import { EventEmitter } from 'node:events';
import type { Store } from '../db/database.ts';
import { announceLocally, type Subscription } from '../db/notices.ts';

export type { Subscription };

export const JOBS_CHANNEL = 'socialapi_jobs';

// A job enqueued in this process names its lane, so that a worker here looks in that lane only
// (a look costs a statement per lane). On PostgreSQL, enqueue()'s NOTIFY names it too (its
// payload), heard by every process, this one included; other notices name none, and their
// hearers look in every lane.
const lanes = new EventEmitter();
lanes.setMaxListeners(0);

/** Tells this process's workers that a job was enqueued (in `lane`, when known). */
export function wakeLocalWorkers(lane?: string): void {
  if (lane === undefined) announceLocally(JOBS_CHANNEL);
  else lanes.emit('enqueued', lane);
}

/** Calls `onLane` for every job enqueued in this process with its lane named, until the returned function is called. */
export function subscribeLaneWakeups(onLane: (lane: string) => void): () => void {
  lanes.on('enqueued', onLane);
  return () => lanes.off('enqueued', onLane);
}

/** Calls `onWake` on every signal until closed, with the lane it names (undefined: any lane). */
export function subscribeWakeups(store: Pick<Store, 'notices'>, onWake: (lane: string | undefined) => void, onError: (error: unknown) => void): Subscription {
  return store.notices.subscribe(JOBS_CHANNEL, {
    onNotify: (payload) => onWake(payload || undefined),
    onListening: () => onWake(undefined), // anything committed while we were not listening
    onLost: onError,
  });
}
