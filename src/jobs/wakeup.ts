// Wake-ups: a worker sleeps until the next due job or a signal that new work was committed.
// In one process that signal is an event; across processes on PostgreSQL it is LISTEN/NOTIFY
// (a NOTIFY sent inside a transaction is delivered only when it commits). SQLite has no
// cross-process signal: a separate worker process falls back to its poll interval there.
import { EventEmitter } from 'node:events';
import { sql, type Kysely } from 'kysely';
import type pg from 'pg';
import type { Database } from '../db/schema.ts';
import type { Store } from '../db/database.ts';

export const JOBS_CHANNEL = 'socialapi_jobs';

const local = new EventEmitter();
local.setMaxListeners(0);

/** Tells workers that a job was enqueued; call it inside the enqueuing transaction. */
export async function signalEnqueued(db: Kysely<Database>, store: Pick<Store, 'caps'>): Promise<void> {
  local.emit('wake');
  if (store.caps.listenNotify) await sql`select pg_notify(${JOBS_CHANNEL}, '')`.execute(db);
}

export interface Subscription {
  close(): Promise<void>;
}

/** Calls `onWake` on every signal until closed; keeps a LISTEN connection alive on PostgreSQL. */
export function subscribeWakeups(store: Store, onWake: () => void, onError: (error: unknown) => void): Subscription {
  local.on('wake', onWake);
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const reconnectLater = (error: unknown): void => {
    onError(error);
    retry = setTimeout(() => void connect(), 1000);
  };
  // A connection that failed after it was kept: dropped once (its 'error' event and a failed
  // LISTEN may both report it), and replaced.
  const lost = (failed: pg.Client, error: unknown): void => {
    if (closed || client !== failed) return;
    client = null;
    failed.end().catch(() => {});
    reconnectLater(error);
  };

  const connect = async (): Promise<void> => {
    if (!store.listenClient || closed) return;
    let next: pg.Client;
    try {
      next = await store.listenClient();
    } catch (error) {
      if (!closed) reconnectLater(error);
      return;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    // Kept from here on, so that a close() while LISTEN is on its way still ends the
    // connection: a client left open would keep the process alive for ever.
    client = next;
    next.on('notification', onWake);
    next.on('error', (error) => lost(next, error));
    try {
      await next.query(`LISTEN ${JOBS_CHANNEL}`);
    } catch (error) {
      lost(next, error);
      return;
    }
    if (!closed) onWake(); // anything committed while we were not listening
  };
  void connect();

  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      local.off('wake', onWake);
      const open = client;
      client = null;
      if (open) await open.end().catch(() => {});
    },
  };
}
