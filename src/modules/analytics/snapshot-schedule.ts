// When snapshots are taken: each published target at about 1 hour, 24 hours and 7 days after
// publishing. Nothing is queued per target: a sweep runs on ticks (multiples of TICK_MS since
// the epoch, under a dedupe key naming the tick, so any number of workers queue one job) and
// finds the targets whose stage is due with one indexed query per stage. A stage is taken while
// its window lasts, up to the next stage's time: a worker down for a day skips the 1-hour
// snapshot of the posts of that day rather than labelling a day-old read "1h".
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Store } from '../../db/database.ts';
import type { Database, PostTargetRow, SnapshotStage } from '../../db/schema.ts';
import { jobKind } from '../../jobs/catalog.ts';
import { enqueue } from '../../jobs/queue.ts';

export const analyticsSnapshot = jobKind('analytics.snapshot', Type.Object({}), { maxAttempts: 3 });

const HOUR_MS = 3_600_000;
/** How often the sweep looks for due snapshots. */
export const TICK_MS = 5 * 60_000;
/** Targets snapshotted per stage and run; a full batch queues the next run at once. */
export const BATCH = 100;

/** Each scheduled stage: due this long after publishing, and taken until `until`. */
export const STAGES: ReadonlyArray<{ stage: Exclude<SnapshotStage, 'refresh'>; after: number; until: number }> = [
  { stage: '1h', after: HOUR_MS, until: 24 * HOUR_MS },
  { stage: '24h', after: 24 * HOUR_MS, until: 7 * 24 * HOUR_MS },
  { stage: '7d', after: 7 * 24 * HOUR_MS, until: 14 * 24 * HOUR_MS },
];

export const tickAfter = (now: number): number => (Math.floor(now / TICK_MS) + 1) * TICK_MS;

/** Queues the sweep at `runAt` (default: the next tick); null when that run is queued already. */
export function queueSnapshotSweep(db: Kysely<Database>, store: Pick<Store, 'caps'>, now: number, runAt = tickAfter(now)): Promise<string | null> {
  return enqueue(db, store, now, analyticsSnapshot, {}, { runAt, dedupeKey: `${analyticsSnapshot.kind}:${runAt}` });
}

export type DueTarget = Pick<PostTargetRow, 'id' | 'organization_id' | 'account_id' | 'platform' | 'platform_post_id' | 'published_at'>;

/** Published targets whose `stage` is due at `now` and not taken yet, oldest first. */
export function dueTargets(db: Kysely<Database>, now: number, stage: (typeof STAGES)[number]): Promise<DueTarget[]> {
  return db
    .selectFrom('post_targets as t')
    .select(['t.id', 't.organization_id', 't.account_id', 't.platform', 't.platform_post_id', 't.published_at'])
    // The literal matches the partial index post_targets_published_at.
    .where('t.status', '=', sql.lit('published'))
    .where('t.published_at', '<=', now - stage.after)
    .where('t.published_at', '>', now - stage.until)
    .where('t.platform_post_id', 'is not', null)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('analytics_snapshots as s').select('s.target_id').whereRef('s.target_id', '=', 't.id').where('s.stage', '=', stage.stage))))
    .orderBy('t.published_at')
    .limit(BATCH)
    .execute();
}
