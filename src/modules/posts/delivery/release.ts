// Starting delivery inside the caller's transaction. Targets are released one at a time, in
// the order of `platforms`: the next one when the one before has finished its first attempt
// (published, failed, waiting for a retry, or waiting on the platform's processing), so a
// target waiting for a retry never holds back the ones after it.
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Store } from '../../../db/database.ts';
import { prepare } from '../../../db/prepared.ts';
import type { Database } from '../../../db/schema.ts';
import { batchedPer } from '../../../db/batched.ts';
import { enqueue, jobForRowOf, jobWrite } from '../../../jobs/queue.ts';
import { JOBS_CHANNEL, wakeLocalWorkers } from '../../../jobs/wakeup.ts';
import { newId } from '../../../lib/ids.ts';
import { lockPost } from '../repo.ts';
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

// Found and released in one statement (the caller holds the post's lock). The row's own
// conditions are repeated: PostgreSQL checks them again on the row it updates, should a
// writer it waited for have changed it.
export const releaseNext = (db: Pick<Kysely<Database>, 'updateTable'>, postId: string, afterPosition: number, now: number) =>
  db
    .updateTable('post_targets')
    .set({ next_attempt_at: now, updated_at: now })
    .where('id', '=', (eb) => nextUnreleased(eb, postId, afterPosition))
    .where('status', '=', 'pending')
    .where('next_attempt_at', 'is', null)
    .returning('id');

/** PostgreSQL: the job of the target a `released` CTE of the same statement released, if any. */
export const releasedJob = (db: Kysely<Database>, jobId: string, now: number) =>
  jobForRowOf(db, postDeliver, jobId, now, now, 'released', sql<string>`json_build_object('targetId', source.id, 'dueAt', cast(${now} as bigint))::text`);

/** Releases the first pending target after `afterPosition` that was not released yet. */
export async function releaseNextTarget(ctx: TxContext, postId: string, afterPosition: number): Promise<string | null> {
  const next = await releaseNext(ctx.db, postId, afterPosition, ctx.now).executeTakeFirst();
  if (!next) return null;
  await queueTargetStep(ctx, next.id, ctx.now);
  return next.id;
}

// PostgreSQL: the next target released, its job queued and the post's other targets' statuses
// read, in one statement (it reads the targets as they were before its own release, which
// changes no status). For a target's outcome, under the post's lock (outcome.ts).
const releasingReading = prepare((db, postId: string, afterPosition: number, targetId: string, jobId: string, now: number) =>
  db
    .with('released', () => releaseNext(db, postId, afterPosition, now))
    .with('queued', () => releasedJob(db, jobId, now))
    .selectNoFrom((eb) => [
      eb.selectFrom('released').select('released.id').as('released'),
      sql<string[]>`array(select status from post_targets where post_id = ${postId} and id <> ${targetId})`.as('others'),
      eb.selectFrom('queued').select(sql<string>`pg_notify(${JOBS_CHANNEL}, '')`.as('n')).as('notified'),
    ]),
);

/** PostgreSQL: releases the target after `target` (if one is waiting) and answers the post's other targets' statuses. */
export async function releaseNextReading(ctx: TxContext, target: { id: string; post_id: string; position: number }): Promise<string[]> {
  const [row] = (await releasingReading.execute(ctx.db, target.post_id, target.position, target.id, newId('job', ctx.now), ctx.now)).rows;
  if (row?.released) wakeLocalWorkers();
  return row?.others ?? [];
}

// PostgreSQL: scheduled posts queued, the first target of each released and that target's job
// queued, in one statement for every post whose dispatch arrived while the last one ran (many
// fall due in the same second). Answers, per post in the order given, whether it was dispatched
// and which target it released.
const dispatchingMany = prepare((db, postIds: string[], jobIds: string[], now: number) =>
  db
    .with('input', (qc) => qc.selectNoFrom([sql<string>`unnest(cast(${postIds} as text[]))`.as('post_id'), sql<string>`unnest(cast(${jobIds} as text[]))`.as('job_id')]))
    .with('dispatched', (qc) =>
      qc
        .updateTable('posts')
        .set({ status: 'queued', updated_at: now })
        .where('id', 'in', (eb) => eb.selectFrom('input').select('input.post_id'))
        .where('status', '=', 'scheduled')
        .returning('id'),
    )
    // Each post's first pending target not released yet (nextUnreleased, for many posts).
    .with('firsts', (qc) =>
      qc
        .selectFrom('post_targets')
        .distinctOn('post_id')
        .select(['id', 'post_id'])
        .where('post_id', 'in', (eb) => eb.selectFrom('dispatched').select('dispatched.id'))
        .where('status', '=', 'pending')
        .where('next_attempt_at', 'is', null)
        .orderBy('post_id')
        .orderBy('position'),
    )
    .with('released', (qc) =>
      qc
        .updateTable('post_targets')
        .set({ next_attempt_at: now, updated_at: now })
        .where('id', 'in', (eb) => eb.selectFrom('firsts').select('firsts.id'))
        .where('status', '=', 'pending')
        .where('next_attempt_at', 'is', null)
        .returning(['id', 'post_id']),
    )
    .with('releasedJobs', (qc) => qc.selectFrom('released').innerJoin('input', 'input.post_id', 'released.post_id').select(['released.id', 'input.job_id']))
    .with('queued', () =>
      jobForRowOf(db, postDeliver, sql<string>`"source"."job_id"`, now, now, 'releasedJobs', sql<string>`json_build_object('targetId', "source"."id", 'dueAt', cast(${now} as bigint))::text`),
    )
    .selectFrom('input')
    .leftJoin('dispatched', 'dispatched.id', 'input.post_id')
    .leftJoin('released', 'released.post_id', 'input.post_id')
    .select((eb) => [
      'input.post_id',
      eb('dispatched.id', 'is not', null).as('dispatched'),
      'released.id as released',
      eb.selectFrom('queued').select(sql<string>`pg_notify(${JOBS_CHANNEL}, '')`.as('n')).limit(1).as('notified'),
    ]),
);

/** Most posts one dispatch statement carries. */
const DISPATCH_BATCH = 500;

type Dispatched = { dispatched: boolean; released: string | null };

const dispatchTogether = batchedPer(async (db: Kysely<Database>, calls: Array<{ postId: string; now: number }>): Promise<Dispatched[]> => {
  const now = Math.max(...calls.map((call) => call.now));
  const { rows } = await dispatchingMany.execute(
    db,
    calls.map((call) => call.postId),
    calls.map(() => newId('job', now)),
    now,
  );
  const byPost = new Map(rows.map((row) => [row.post_id, row]));
  return calls.map((call) => ({ dispatched: Boolean(byPost.get(call.postId)?.dispatched), released: byPost.get(call.postId)?.released ?? null }));
}, DISPATCH_BATCH);

/**
 * A scheduled post's time has come: it becomes queued and its first target is released. A post
 * no longer scheduled (deleted, published now, sent back for approval) is left alone.
 */
export async function dispatchPost(store: Pick<Store, 'db' | 'caps'>, postId: string, now: number): Promise<void> {
  if (store.caps.writableCte) {
    const row = await dispatchTogether(store.db, { postId, now });
    if (row.released) wakeLocalWorkers(postDeliver.lane);
    // The statement read the targets as they were when it began; should a writer it waited for
    // on the post have changed them meanwhile, the release is made again under the post's lock.
    if (!row.dispatched || row.released) return;
    await store.db.transaction().execute(async (trx) => {
      await lockPost(trx, postId, now);
      await startDelivery({ db: trx, store, now }, postId);
    });
    return;
  }
  await store.db.transaction().execute(async (trx) => {
    // Locks the post and moves it on in one statement.
    const queued = await trx.updateTable('posts').set({ status: 'queued', updated_at: now }).where('id', '=', postId).where('status', '=', 'scheduled').returning('id').executeTakeFirst();
    if (!queued) return;
    await startDelivery({ db: trx, store, now }, postId);
  });
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

