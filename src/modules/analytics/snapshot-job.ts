// analytics.snapshot: takes the snapshots that are due (snapshot-schedule.ts), then queues the
// next tick (at once when a batch came back full). A read that failed for a reason that may pass
// (timeout, rate limit) is not kept: the next tick tries again while the stage's window lasts;
// any other outcome, values or errors, is kept, so a target that will never answer is asked once
// per stage.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AppDeps } from '../../deps.ts';
import { defineJob } from '../../jobs/catalog.ts';
import { BATCH, STAGES, analyticsSnapshot, dueTargets, queueSnapshotSweep, type DueTarget } from './snapshot-schedule.ts';
import { readTarget, recordSnapshot } from './snapshots.ts';

export function snapshotJob(deps: Pick<AppDeps, 'store' | 'clock' | 'sealer' | 'platforms'>) {
  return defineJob(analyticsSnapshot, {
    timeoutMs: 10 * 60_000,
    async run(_payload, context) {
      let full = false;
      try {
        if (await olderSweepDue(context.db, context.jobId)) return;
        for (const stage of STAGES) {
          const due = await dueTargets(context.db, deps.clock.now(), stage);
          full ||= due.length === BATCH;
          for (const target of due) {
            if (context.signal.aborted) return;
            await snapshotOne(deps, target, stage.stage);
          }
        }
      } finally {
        const now = deps.clock.now();
        await queueSnapshotSweep(context.db, deps.store, now, full ? now : undefined);
      }
    },
  });
}

/**
 * Whether a sweep queued before this one is pending or running. Sweeps of several ticks fall due
 * together after a worker's outage (or a test's clock jump) and would read the same due targets
 * side by side; only the oldest runs, the others end at once (each still queues the next tick,
 * which its dedupe key makes one job).
 */
async function olderSweepDue(db: Kysely<Database>, jobId: string): Promise<boolean> {
  const row = await db
    .selectFrom('jobs as other')
    .innerJoin('jobs as me', (join) => join.on('me.id', '=', jobId).onRef('other.kind', '=', 'me.kind').onRef('other.id', '<>', 'me.id'))
    .select('other.id')
    .where('other.status', 'in', ['pending', 'running'])
    .where((eb) => eb.or([eb('other.run_at', '<', eb.ref('me.run_at')), eb.and([eb('other.run_at', '=', eb.ref('me.run_at')), eb('other.id', '<', eb.ref('me.id'))])]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function snapshotOne(deps: Pick<AppDeps, 'store' | 'clock' | 'sealer' | 'platforms'>, target: DueTarget, stage: (typeof STAGES)[number]['stage']): Promise<boolean> {
  const account = await deps.store.db.selectFrom('accounts').selectAll().where('id', '=', target.account_id).executeTakeFirst();
  if (!account) return false;
  const read = await readTarget(deps, account, target);
  if (read.retryable) return false;
  return recordSnapshot(deps.store.db, target, stage, read);
}
