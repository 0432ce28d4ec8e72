// Delivery's writes one statement at a time, in a transaction where they must hold together:
// the store for SQLite, where a statement costs no round trip, and what PostgreSQL's store falls
// back to where a statement of its own cannot decide alone (postgres-store.ts). Every query
// here runs on both stores.
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { Database, TargetStatus } from '../../../db/schema.ts';
import { prepare } from '../../../db/prepared.ts';
import { premarkedProgress } from '../../../platforms/create-once.ts';
import { lockPost } from '../repo.ts';
import type { DeliveryDb, DeliveryStore, Recorded, RecordedStep } from './delivery-store.ts';
import { leaseHeld, LEASE_LOST, whileHeld } from './lease-fence.ts';
import { queueTargetStep, releaseNextTarget, startDelivery, type TxContext } from './release.ts';
import { settlePost } from './settle.ts';
import { changeArgs, changeTarget, isOpen, type ChangeArgs, type Target } from './target-change.ts';
import { FRESH, startStepOf, targetOf } from './target-read.ts';

const readTarget = prepare((db, targetId: string) => targetOf(db).where('t.id', '=', targetId));

type Held = (eb: ExpressionBuilder<Database, 'post_targets'>) => Expression<SqlBool>;

// A fresh attempt (no progress) is claimed with the marker of its first call (create-once.ts),
// if the run still holds its job: like every marker, it is saved only under the lease.
const claimTarget = (db: Kysely<Database>, targetId: string, dueAt: number, now: number, premarked: string, held: Held) =>
  db
    .updateTable('post_targets')
    .set((eb) => ({
      status: 'publishing',
      attempts: eb('attempts', '+', 1),
      progress: eb.case().when(eb.and([eb('progress', '=', FRESH), held(eb)])).then(premarked).else(eb.ref('progress')).end(),
      updated_at: now,
    }))
    .where('id', '=', targetId)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '=', dueAt);

const startPost = (db: Kysely<Database>, postId: string, now: number) => db.updateTable('posts').set({ status: 'publishing', updated_at: now }).where('id', '=', postId).where('status', '=', 'queued');

const changingTarget = prepare((db, ...change: ChangeArgs) => changeTarget(db, ...change));

/** The post's other targets' statuses, read under the post's lock. */
async function otherStatuses(ctx: TxContext, target: Target): Promise<TargetStatus[]> {
  const rows = await ctx.db.selectFrom('post_targets').select('status').where('post_id', '=', target.post_id).where('id', '<>', target.id).execute();
  return rows.map((row) => row.status);
}

export const portableDeliveryStore: DeliveryStore = {
  async start(store, targetId, dueAt, now, lease) {
    const [row] = (await readTarget.execute(store.db, targetId)).rows;
    const step = startStepOf(row, dueAt);
    if (!row || step === 'stop') return null;
    if (step === 'settle_post') return { unsettled: row };
    if (step === 'resume') return { row, claimed: false, nextWaiting: false, premarkedAt: null };
    const premarked = premarkedProgress(now);
    const claim = await claimTarget(store.db, targetId, dueAt, now, premarked, whileHeld(store, lease)).returning('progress').executeTakeFirst();
    if (!claim) return null;
    // Read with the target above: only the post's first target finds it still queued.
    if (row.postStatus === 'queued') await startPost(store.db, row.post_id, now).execute();
    return { row, claimed: true, nextWaiting: false, premarkedAt: claim.progress === premarked ? now : null };
  },

  async dispatch(store, postId, now) {
    await store.db.transaction().execute(async (trx) => {
      // Locks the post and moves it on in one statement.
      const queued = await trx.updateTable('posts').set({ status: 'queued', updated_at: now }).where('id', '=', postId).where('status', '=', 'scheduled').returning('id').executeTakeFirst();
      if (!queued) return;
      await startDelivery({ db: trx, store, now }, postId);
    });
  },

  record: recordInTransaction,
};

/** The step in one transaction, with the post locked so that its targets are read after every other writer of them has committed. */
export async function recordInTransaction(store: DeliveryDb, step: RecordedStep): Promise<Recorded> {
  const { target, change, outcome, lease, now } = step;
  return store.db.transaction().execute(async (db): Promise<Recorded> => {
    const ctx: TxContext = { db, store, now };
    if (!(await leaseHeld(db.selectFrom('jobs'), store, lease).executeTakeFirst())) throw new Error(`${LEASE_LOST}; its outcome is not recorded`);
    await lockPost(db, target.post_id, now);
    await changingTarget.execute(db, ...changeArgs(target, change, outcome, now));
    if (change.nextStepAt !== null) await queueTargetStep(ctx, target.id, change.nextStepAt);
    if (target.released_next === 0) await releaseNextTarget(ctx, target.post_id, target.position);
    if (isOpen(change.status)) return 'settled_or_open';
    const others = await otherStatuses(ctx, target);
    if (!others.some(isOpen)) await settlePost(ctx, step.organizationId, target.post_id, [change.status, ...others]);
    return 'settled_or_open';
  });
}
