// Recording what one delivery step achieved, in one transaction with the post row locked: the
// target's new state, the next step's job (retry or processing check), the release of the next
// target after a first attempt, and, once every target has settled, the post's outcome and its
// event (published → post.published; failed or partial → post.failed).
import { sql } from 'kysely';
import type { Store } from '../../../db/database.ts';
import { prepare } from '../../../db/prepared.ts';
import type { PostStatus, TargetStatus } from '../../../db/schema.ts';
import { jobForRowOf } from '../../../jobs/queue.ts';
import { JOBS_CHANNEL, wakeLocalWorkers } from '../../../jobs/wakeup.ts';
import { newId } from '../../../lib/ids.ts';
import type { EventData } from '../../events/catalog.ts';
import { emitEvent, queueDeliveries } from '../../events/emit.ts';
import { lockPost } from '../repo.ts';
import { closeInOneStatement } from './closing.ts';
import { postDeliver } from './kinds.ts';
import { HELD, leaseHeld, leaseLocked, LEASE_LOST, type Lease } from './lease-fence.ts';
import { queueTargetStep, releasedJob, releaseNext, releaseNextReading, releaseNextTarget, type TxContext } from './release.ts';
import { changeArgs, changeOf, changeTarget, isOpen, type ChangeArgs, type StepOutcome, type Target, type TargetChange } from './target-change.ts';

export type { StepOutcome } from './target-change.ts';

/**
 * Records the step's outcome while the run still holds `lease` (else throws, recording nothing),
 * and returns the target's new status (pending: a retry is scheduled). `nextWaiting`: a later
 * target waits for this one's first attempt (as read when the run began).
 */
export async function recordOutcome(store: Pick<Store, 'db' | 'caps'>, now: number, organizationId: string, target: Target, outcome: StepOutcome, lease: Lease, nextWaiting = false): Promise<TargetStatus> {
  const change = changeOf(target, outcome, now);
  // PostgreSQL, a first attempt that ends (published, or failed for good) with a target after it
  // waiting: one statement, no transaction. The post cannot settle while the target it releases
  // is open, so it needs no lock and no reading of the others, unless the release found none.
  if (store.caps.writableCte && target.released_next === 0 && nextWaiting && change.nextStepAt === null) {
    const released = await changeReleasing(store, now, target, change, outcome, lease);
    if (!released && !isOpen(change.status)) await settleIfOver(store, now, organizationId, target.post_id);
    return change.status;
  }
  // PostgreSQL, any other attempt that ends the target: one statement when the post is free
  // (closing.ts), else the transaction below.
  if (store.caps.writableCte && change.nextStepAt === null && !isOpen(change.status)) {
    const closed = await closeInOneStatement(store, now, organizationId, target, change, outcome, lease);
    if (closed === 'recorded_unsettled') await settleIfOver(store, now, organizationId, target.post_id);
    if (closed !== 'retry_in_transaction') return change.status;
  }
  return store.db.transaction().execute(async (db) => {
    const ctx: TxContext = { db, store, now };
    const settles = !isOpen(change.status);
    let others: string[] | null;
    if (store.caps.writableCte) {
      await changeFenced(ctx, target, change, outcome, lease);
      others = target.released_next === 0 ? await releaseNextReading(ctx, target) : settles ? await otherStatuses(ctx, target) : null;
    } else {
      if (!(await leaseHeld(db.selectFrom('jobs'), store, lease).executeTakeFirst())) throw new Error(`${LEASE_LOST}; its outcome is not recorded`);
      await lockPost(db, target.post_id, now);
      await changingTarget.execute(db, ...changeArgs(target, change, outcome, now));
      if (change.nextStepAt !== null) await queueTargetStep(ctx, target.id, change.nextStepAt);
      if (target.released_next === 0) await releaseNextTarget(ctx, target.post_id, target.position);
      others = settles ? await otherStatuses(ctx, target) : null;
    }
    if (settles && others && !others.some(isOpen)) await settlePost(ctx, organizationId, target.post_id, [change.status, ...others]);
    return change.status;
  });
}

/**
 * Settles the post if none of its targets is open any more: after an outcome recorded without
 * the post's lock, and for a target found over while its post is not (its run ended between
 * recording the outcome and settling the post: the job runs again, and lands here).
 */
export async function settleIfOver(store: Pick<Store, 'db' | 'caps'>, now: number, organizationId: string, postId: string): Promise<void> {
  await store.db.transaction().execute(async (db) => {
    await lockPost(db, postId, now);
    const statuses = (await db.selectFrom('post_targets').select('status').where('post_id', '=', postId).execute()).map((row) => row.status);
    if (statuses.length > 0 && !statuses.some(isOpen)) await settlePost({ db, store, now }, organizationId, postId, statuses);
  });
}

const changingTarget = prepare((db, ...change: ChangeArgs) => changeTarget(db, ...change));

// The lease checked, the target changed and the next target released with its job, every
// write conditioned on the lease.
const changingReleasing = prepare((db, jobId: string, attempt: number, postId: string, position: number, newJobId: string, ...change: ChangeArgs) =>
  db
    .with('lease', () => leaseLocked(db.selectFrom('jobs'), { jobId, attempt }))
    .with('changed', () => changeTarget(db, ...change).where(HELD))
    .with('released', (qc) => releaseNext(qc, postId, position, change[7]).where(HELD))
    .with('queued', () => releasedJob(db, newJobId, change[7]))
    .selectNoFrom((eb) => [
      HELD.as('held'),
      eb.selectFrom('released').select('released.id').as('released'),
      eb.selectFrom('queued').select(sql<string>`pg_notify(${JOBS_CHANNEL}, '')`.as('n')).as('notified'),
    ]),
);

/**
 * PostgreSQL, in one statement outside any transaction: the lease checked, the target changed,
 * the next target released with its job; a run that lost the lease writes nothing (and throws).
 * Answers whether a target was released.
 */
async function changeReleasing(store: Pick<Store, 'db' | 'caps'>, now: number, target: Target, change: TargetChange, outcome: StepOutcome, lease: Lease): Promise<boolean> {
  const [result] = (await changingReleasing.execute(store.db, lease.jobId, lease.attempt, target.post_id, target.position, newId('job', now), ...changeArgs(target, change, outcome, now))).rows;
  if (!result?.held) throw new Error(`${LEASE_LOST}; its outcome is not recorded`);
  if (result.released === null) return false;
  wakeLocalWorkers();
  return true;
}

// The lease checked, the post locked (the rest of the transaction reads its targets after every
// other writer of them has committed), the target changed; with its next step's job, or without.
const lockingChanging = prepare((db, jobId: string, attempt: number, postId: string, ...change: ChangeArgs) =>
  db
    .with('lease', () => leaseLocked(db.selectFrom('jobs'), { jobId, attempt }))
    .with('locked', (qc) => qc.updateTable('posts').set({ updated_at: change[7] }).where('id', '=', postId))
    .with('changed', () => changeTarget(db, ...change))
    .selectNoFrom(() => [HELD.as('held')]),
);
const lockingChangingQueuing = prepare((db, jobId: string, attempt: number, postId: string, stepJobId: string, stepPayload: string, ...change: ChangeArgs) =>
  db
    .with('lease', () => leaseLocked(db.selectFrom('jobs'), { jobId, attempt }))
    .with('locked', (qc) => qc.updateTable('posts').set({ updated_at: change[7] }).where('id', '=', postId))
    .with('changed', () => changeTarget(db, ...change).returning('id'))
    .with('queued', () => jobForRowOf(db, postDeliver, stepJobId, change[6] ?? 0, change[7], 'changed', sql<string>`${stepPayload}`))
    .selectNoFrom((eb) => [HELD.as('held'), eb.selectFrom('queued').select(sql<string>`pg_notify(${JOBS_CHANNEL}, '')`.as('n')).as('notified')]),
);

/**
 * PostgreSQL, in one statement: the lease checked, the post locked, the target changed and
 * its next step queued. A run that no longer holds the lease throws, and the transaction rolls
 * back whatever the statement wrote.
 */
async function changeFenced(ctx: TxContext, target: Target, change: TargetChange, outcome: StepOutcome, lease: Lease): Promise<void> {
  const args = changeArgs(target, change, outcome, ctx.now);
  const at = change.nextStepAt;
  const result =
    at === null
      ? (await lockingChanging.execute(ctx.db, lease.jobId, lease.attempt, target.post_id, ...args)).rows[0]
      : (await lockingChangingQueuing.execute(ctx.db, lease.jobId, lease.attempt, target.post_id, newId('job', ctx.now), JSON.stringify({ targetId: target.id, dueAt: at }), ...args)).rows[0];
  if (!result?.held) throw new Error(`${LEASE_LOST}; its outcome is not recorded`);
  if (at !== null) wakeLocalWorkers();
}

/** The post's other targets' statuses, read under the post's lock. */
async function otherStatuses(ctx: TxContext, target: Target): Promise<string[]> {
  const rows = await ctx.db.selectFrom('post_targets').select('status').where('post_id', '=', target.post_id).where('id', '<>', target.id).execute();
  return rows.map((row) => row.status);
}

// PostgreSQL: the post's outcome, its event and the organization's endpoints, in one statement;
// endpoints come back only when this statement settled the post.
const settling = prepare((db, postId: string, status: PostStatus, now: number, eventId: string, organizationId: string, type: string, data: string) =>
  db
    .with('settled', (qc) => qc.updateTable('posts').set({ status, updated_at: now }).where('id', '=', postId).where('status', 'in', ['queued', 'publishing']).returning('id'))
    .with('recorded', (qc) =>
      qc
        .insertInto('events')
        .columns(['id', 'organization_id', 'type', 'data', 'created_at'])
        .expression((eb) => eb.selectFrom('settled').select([sql.val(eventId).as('id'), sql.val(organizationId).as('organization_id'), sql.val(type).as('type'), sql.val(data).as('data'), sql`cast(${now} as bigint)`.as('created_at')])),
    )
    .selectFrom('webhook_endpoints')
    .select(['id', 'events'])
    .where('organization_id', '=', organizationId)
    .where((eb) => eb.exists(eb.selectFrom('settled').select('settled.id'))),
);

/** Once no target is pending or publishing, the post takes its outcome. */
async function settlePost(ctx: TxContext, organizationId: string, postId: string, statuses: readonly string[]): Promise<void> {
  const published = statuses.filter((status) => status === 'published').length;
  const status: PostStatus = published === statuses.length ? 'published' : published === 0 ? 'failed' : 'partial';
  const type = status === 'published' ? 'post.published' : 'post.failed';
  const data: EventData<typeof type> = { postId, status };
  if (ctx.store.caps.writableCte) {
    const eventId = newId('event', ctx.now);
    const { rows: endpoints } = await settling.execute(ctx.db, postId, status, ctx.now, eventId, organizationId, type, JSON.stringify(data));
    await queueDeliveries(ctx, organizationId, eventId, type, endpoints);
    return;
  }
  const changed = await ctx.db.updateTable('posts').set({ status, updated_at: ctx.now }).where('id', '=', postId).where('status', 'in', ['queued', 'publishing']).executeTakeFirst();
  if (changed.numUpdatedRows === 0n) return;
  await emitEvent(ctx, organizationId, type, data);
}
