// store.retention: once a day, deletes what only grows and nothing needs any more (see sweep.ts),
// in batches until done or the job's signal fires; then queues the next day's sweep.
import type { AppDeps } from '../../deps.ts';
import { defineJob, type JobContext } from '../../jobs/catalog.ts';
import { scheduleRetention, storeRetention } from './schedule.ts';
import { BATCH, batches, cutoffs, type Cutoffs } from './sweep.ts';

export function retentionJob(deps: Pick<AppDeps, 'config' | 'store' | 'clock'>) {
  return defineJob(storeRetention, {
    timeoutMs: 10 * 60_000,
    async run(_payload, context) {
      try {
        const removed = await sweep(context, cutoffs(deps.clock.now(), deps.config.retentionDays));
        context.log.info({ removed }, 'retention sweep done');
      } finally {
        // Also after a failed or cut-off sweep: tomorrow's must not depend on today's.
        await scheduleRetention(context.db, deps.store, deps.clock.now());
      }
    },
  });
}

/** Runs every kind of batch until it comes back short; returns the rows deleted per kind. */
export async function sweep(context: Pick<JobContext, 'db' | 'signal'>, c: Cutoffs): Promise<Record<string, number>> {
  const removed: Record<string, number> = {};
  for (const [name, batch] of Object.entries(batches)) {
    removed[name] = 0;
    while (!context.signal.aborted) {
      const n = Number(await batch(context.db, c));
      removed[name] += n;
      if (n < BATCH) break;
    }
  }
  return removed;
}
