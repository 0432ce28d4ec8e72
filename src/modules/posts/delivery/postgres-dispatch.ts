// PostgreSQL: a scheduled post's dispatch (delivery-store.ts) in one statement, shared with
// every dispatch that arrived while the last statement ran.
import { sql, type Kysely } from 'kysely';
import { batchedPer } from '../../../db/batched.ts';
import { prepare } from '../../../db/prepared.ts';
import type { Database } from '../../../db/schema.ts';
import { jobForRowOf } from '../../../jobs/queue.ts';
import { JOBS_CHANNEL, wakeLocalWorkers } from '../../../jobs/wakeup.ts';
import { newId } from '../../../lib/ids.ts';
import { lockPost } from '../repo.ts';
import type { DeliveryStore } from './delivery-store.ts';
import { postDeliver } from './kinds.ts';
import { startDelivery } from './release.ts';

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

const dispatchesTogether = batchedPer(async (db: Kysely<Database>, calls: Array<{ postId: string; now: number }>): Promise<Dispatched[]> => {
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

export const dispatchTogether: DeliveryStore['dispatch'] = async (store, postId, now) => {
  const row = await dispatchesTogether(store.db, { postId, now });
  if (row.released) wakeLocalWorkers(postDeliver.lane);
  // The statement read the targets as they were when it began; should a writer it waited for
  // on the post have changed them meanwhile, the release is made again under the post's lock.
  if (!row.dispatched || row.released) return;
  await store.db.transaction().execute(async (trx) => {
    await lockPost(trx, postId, now);
    await startDelivery({ db: trx, store, now }, postId);
  });
};
