// When the comment poll runs, and when each target is polled again. The job runs on ticks,
// multiples of COMMENT_POLL_MS since the epoch, under a dedupe key naming its tick: every
// worker start and every finished run asks for the next tick, and the key keeps it to one job
// however many workers ask. A target is polled every interval during its first day, and each
// further day twice as seldom (5, 10, 20 … 320 minutes by default), until it is 7 days old.
// Its next time is counted from the tick it was polled in, so it falls on a tick and is not
// left waiting for the one after.
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Store } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { jobKind } from '../../jobs/catalog.ts';
import { enqueue } from '../../jobs/queue.ts';

export const commentPoll = jobKind('inbox.comment_poll', Type.Object({}), { maxAttempts: 3 });

const DAY_MS = 86_400_000;
/** Comments are polled while a post is younger than this (DESIGN "Comments and inbox"). */
export const POLL_WINDOW_MS = 7 * DAY_MS;

/** The first tick strictly after `now`. */
export const tickAfter = (now: number, intervalMs: number): number => (Math.floor(now / intervalMs) + 1) * intervalMs;

/** When a target published at `publishedAt` and polled at `now` is due again. */
export function nextPollAt(publishedAt: number, now: number, intervalMs: number): number {
  const ageDays = Math.max(0, Math.floor((now - publishedAt) / DAY_MS));
  const tick = Math.floor(now / intervalMs) * intervalMs;
  return tick + intervalMs * 2 ** Math.min(ageDays, 6);
}

/**
 * Queues a poll run at `runAt` (default: the next tick); null when that run is queued already.
 * A run that filled its batch queues the next one at once, under that moment's key.
 */
export function queueCommentPoll(db: Kysely<Database>, store: Pick<Store, 'caps'>, now: number, intervalMs: number, runAt = tickAfter(now, intervalMs)): Promise<string | null> {
  return enqueue(db, store, now, commentPoll, {}, { runAt, dedupeKey: `${commentPoll.kind}:${runAt}` });
}

/**
 * A poll job's run (comments, mentions): one batch of what is due, then its next tick queued
 * however the batch ended, and a run at once when the batch came back full (more is due).
 */
export async function pollBatchThenQueue(run: { batch: number; signal: AbortSignal; now: () => number; poll: () => Promise<number>; queue: (now: number, runAt?: number) => Promise<unknown> }): Promise<void> {
  let claimed = 0;
  try {
    claimed = await run.poll();
  } finally {
    const now = run.now();
    await run.queue(now);
    if (claimed === run.batch && !run.signal.aborted) await run.queue(now, now);
  }
}
