// Starting delivery inside the caller's transaction. Targets are released one at a time, in
// the order of `platforms`: the next one when the one before has finished its first attempt
// (published, failed, waiting for a retry, or waiting on the platform's processing), so a
// target waiting for a retry never holds back the ones after it.
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Store } from '../../../db/database.ts';
import type { Database } from '../../../db/schema.ts';
import { enqueue, jobWrite } from '../../../jobs/queue.ts';
import { postDeliver, postDispatch } from './kinds.ts';

export interface TxContext {
  db: Kysely<Database>;
  store: Pick<Store, 'caps'>;
  now: number;
}

const dispatchKey = (postId: string) => `post.dispatch:${postId}`;

/** The first pending target after `afterPosition` that was not released yet. */
const nextUnreleased = (eb: ExpressionBuilder<Database, 'post_targets'>, postId: string, afterPosition: number) =>
  eb
    .selectFrom('post_targets')
    .select('id')
    .where('post_id', '=', postId)
    .where('position', '>', afterPosition)
    .where('status', '=', 'pending')
    .where('next_attempt_at', 'is', null)
    .orderBy('position')
    .limit(1);

// Found and released in one statement (the caller holds the post's lock, or, on PostgreSQL, the
// statement is one of its own: closing.ts). The row's own conditions are repeated: PostgreSQL
// checks them again on the row it updates, should a writer it waited for have changed it.
export const releaseNext = (db: Pick<Kysely<Database>, 'updateTable'>, postId: string, afterPosition: number, now: number) =>
  db
    .updateTable('post_targets')
    .set({ next_attempt_at: now, updated_at: now })
    .where('id', '=', (eb) => nextUnreleased(eb, postId, afterPosition))
    .where('status', '=', 'pending')
    .where('next_attempt_at', 'is', null)
    .returning('id');

/** Releases the first pending target after `afterPosition` that was not released yet. */
export async function releaseNextTarget(ctx: TxContext, postId: string, afterPosition: number): Promise<string | null> {
  const next = await releaseNext(ctx.db, postId, afterPosition, ctx.now).executeTakeFirst();
  if (!next) return null;
  await queueTargetStep(ctx, next.id, ctx.now);
  return next.id;
}

/** Queues the job of a target whose `next_attempt_at` is already `at` (a new post's first target). */
export async function queueTargetStep(ctx: TxContext, targetId: string, at: number): Promise<void> {
  await enqueue(ctx.db, ctx.store, ctx.now, postDeliver, { targetId, dueAt: at }, { runAt: at });
}

/** queueTargetStep's job as a write, for a new post written in one statement (create.ts). */
export const targetStepJob = (now: number, targetId: string, at: number) => jobWrite(now, postDeliver, { targetId, dueAt: at }, { runAt: at });

/** scheduleDispatch's job as a write. */
export const dispatchJob = (now: number, postId: string, at: number) => jobWrite(now, postDispatch, { postId, dueAt: at }, { runAt: at, dedupeKey: dispatchKey(postId) });

export const startDelivery = (ctx: TxContext, postId: string) => releaseNextTarget(ctx, postId, -1);

/** Queues the move from scheduled to queued at the post's time. */
export async function scheduleDispatch(ctx: TxContext, postId: string, at: number): Promise<void> {
  await enqueue(ctx.db, ctx.store, ctx.now, postDispatch, { postId, dueAt: at }, { runAt: at, dedupeKey: dispatchKey(postId) });
}

/** Cancels a scheduled post's pending dispatch (a running one finds the post changed and stops). */
export async function cancelDispatch(db: Kysely<Database>, postId: string): Promise<void> {
  await db.deleteFrom('jobs').where('dedupe_key', '=', dispatchKey(postId)).where('status', '=', 'pending').execute();
}

