// One store.retention sweep a day, at the next UTC midnight, under a dedupe key naming that day.
// Every worker start and every finished sweep asks for it; the key keeps it to one job, so any
// number of workers may run sweeps and they never stack up.
import type { Kysely } from 'kysely';
import type { Store } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { enqueue } from '../../jobs/queue.ts';

export const STORE_RETENTION = { kind: 'store.retention', maxAttempts: 3 } as const;

const DAY_MS = 86_400_000;

/** Queues the sweep of the next UTC midnight after `now`; null when it is queued already. */
export function scheduleRetention(db: Kysely<Database>, store: Pick<Store, 'caps'>, now: number): Promise<string | null> {
  const runAt = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
  const day = new Date(runAt).toISOString().slice(0, 10);
  return enqueue(db, store, now, STORE_RETENTION, {}, { runAt, dedupeKey: `${STORE_RETENTION.kind}:${day}` });
}
