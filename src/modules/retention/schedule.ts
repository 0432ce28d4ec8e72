// One store.retention sweep a day, at the next UTC midnight, under a dedupe key naming that day.
// Every worker start and every finished sweep asks for it; the key keeps it to one job, so any
// number of workers may run sweeps and they never stack up.
import type { Kysely } from 'kysely';
import type { Store } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { Type } from 'typebox';
import { jobKind } from '../../jobs/catalog.ts';
import { enqueueDailySweep, midnightAfter } from '../../jobs/queue.ts';

export const storeRetention = jobKind('store.retention', Type.Object({}), { maxAttempts: 3 });

/** Queues the sweep of the next UTC midnight after `now`; null when it is queued already. */
export function scheduleRetention(db: Kysely<Database>, store: Pick<Store, 'caps'>, now: number): Promise<string | null> {
  // Strictly after: a sweep running at midnight queues the next day's, not its own again.
  return enqueueDailySweep(db, store, now, storeRetention, midnightAfter(now + 1));
}
