// Recording what one delivery step achieved, in one transaction with the post row locked: the
// target's new state, the next step's job (retry or processing check), the release of the next
// target after a first attempt, and, once every target has settled, the post's outcome and its
// event (published → post.published; failed or partial → post.failed).
import { sql, type Updateable } from 'kysely';
import { prepare } from '../../../db/prepared.ts';
import type { PostStatus, PostTargetRow, PostTargetsTable, TargetStatus } from '../../../db/schema.ts';
import { asCte, type Write } from '../../../db/write-together.ts';
import { exponentialBackoff } from '../../../jobs/backoff.ts';
import { jobWrite } from '../../../jobs/queue.ts';
import { wakeLocalWorkers } from '../../../jobs/wakeup.ts';
import { newId } from '../../../lib/ids.ts';
import type { EventData } from '../../events/catalog.ts';
import { emitEvent, queueDeliveries } from '../../events/emit.ts';
import { lockPost } from '../repo.ts';
import { DELIVERY_BACKOFF, MAX_TARGET_ATTEMPTS, postDeliver } from './kinds.ts';
import { leaseHeld, LEASE_LOST, type Lease } from './lease-fence.ts';
import { queueTargetStep, releaseNextReading, releaseNextTarget, type TxContext } from './release.ts';

export type StepOutcome =
  | { kind: 'published'; platformPostId: string | null; url: string | null }
  | { kind: 'processing'; checkAfterMs: number }
  | { kind: 'failed'; message: string; retryable: boolean; retryAfterMs?: number | undefined };

type Target = Pick<PostTargetRow, 'id' | 'post_id' | 'position' | 'attempts' | 'released_next'>;

/** Delay before retry `attempts + 1`, or null when no attempts are left. */
export function retryDelay(attempts: number, retryAfterMs?: number, random: () => number = Math.random): number | null {
  if (attempts >= MAX_TARGET_ATTEMPTS) return null;
  const delay = exponentialBackoff(attempts, DELIVERY_BACKOFF, random);
  return Math.min(Math.max(delay, retryAfterMs ?? 0), DELIVERY_BACKOFF.maxMs);
}

interface TargetChange {
  status: TargetStatus;
  /** The target row's new columns. */
  set: Updateable<PostTargetsTable>;
  /** When the target's next step is due, if it has one (a retry, a processing check). */
  nextStepAt: number | null;
}

function changeOf(target: Target, outcome: StepOutcome, now: number): TargetChange {
  // After its first attempt a target releases the next one; the mark rides in its own update.
  const releasing = target.released_next === 0 ? { released_next: 1 as const } : {};
  switch (outcome.kind) {
    case 'published':
      return { status: 'published', set: { status: 'published', platform_post_id: outcome.platformPostId, url: outcome.url, error: null, published_at: now, next_attempt_at: null, updated_at: now, ...releasing }, nextStepAt: null };
    case 'processing': {
      const at = now + outcome.checkAfterMs;
      return { status: 'publishing', set: { next_attempt_at: at, updated_at: now, ...releasing }, nextStepAt: at };
    }
    case 'failed': {
      const delay = outcome.retryable ? retryDelay(target.attempts, outcome.retryAfterMs) : null;
      const at = delay === null ? null : now + delay;
      return { status: at === null ? 'failed' : 'pending', set: { status: at === null ? 'failed' : 'pending', error: outcome.message, updated_at: now, next_attempt_at: at, ...releasing }, nextStepAt: at };
    }
    default: {
      const unreachable: never = outcome;
      throw new Error(`unknown outcome ${String(unreachable)}`);
    }
  }
}

const isOpen = (status: string) => status === 'pending' || status === 'publishing';

/**
 * Records the step's outcome while the run still holds `lease` (else throws, recording nothing),
 * and returns the target's new status (pending: a retry is scheduled).
 */
export async function recordOutcome(ctx: TxContext, organizationId: string, target: Target, outcome: StepOutcome, lease: Lease): Promise<TargetStatus> {
  const change = changeOf(target, outcome, ctx.now);
  const settles = !isOpen(change.status);
  let others: string[] | null;
  if (ctx.store.caps.writableCte) {
    await changeFenced(ctx, target, change, lease);
    others = target.released_next === 0 ? await releaseNextReading(ctx, target) : settles ? await otherStatuses(ctx, target) : null;
  } else {
    if (!(await leaseHeld(ctx.db.selectFrom('jobs'), ctx.store, lease).executeTakeFirst())) throw new Error(`${LEASE_LOST}; its outcome is not recorded`);
    await lockPost(ctx.db, target.post_id, ctx.now);
    await ctx.db.updateTable('post_targets').set(change.set).where('id', '=', target.id).execute();
    if (change.nextStepAt !== null) await queueTargetStep(ctx, target.id, change.nextStepAt);
    if (target.released_next === 0) await releaseNextTarget(ctx, target.post_id, target.position);
    others = settles ? await otherStatuses(ctx, target) : null;
  }
  if (settles && others && !others.some(isOpen)) await settlePost(ctx, organizationId, target.post_id, [change.status, ...others]);
  return change.status;
}

/**
 * PostgreSQL, in one statement: the lease checked, the post locked (the rest of the transaction
 * reads its targets after every other writer of them has committed), the target changed and
 * its next step queued. A run that no longer holds the lease throws, and the transaction rolls
 * back whatever the statement wrote.
 */
async function changeFenced(ctx: TxContext, target: Target, change: TargetChange, lease: Lease): Promise<void> {
  const { db, now } = ctx;
  const step = change.nextStepAt === null ? null : jobWrite(now, postDeliver, { targetId: target.id, dueAt: change.nextStepAt }, { runAt: change.nextStepAt });
  const query = db
    .with('lease', (qc) => leaseHeld(qc.selectFrom('jobs'), ctx.store, lease))
    .with('locked', (qc) => qc.updateTable('posts').set({ updated_at: now }).where('id', '=', target.post_id))
    .with('changed', (qc) => qc.updateTable('post_targets').set(change.set).where('id', '=', target.id))
    .with('queued', () => asCte(step?.write ?? noWrite, db))
    .selectNoFrom((eb) => [eb.exists(eb.selectFrom('lease').select('lease.id')).as('held'), ...(step ? [sql<string>`pg_notify(${step.notify}, '')`.as('notified')] : [])]);
  const [result] = (await query.execute()) as Array<{ held: boolean }>;
  if (!result?.held) throw new Error(`${LEASE_LOST}; its outcome is not recorded`);
  if (step) wakeLocalWorkers();
}

// A CTE that writes nothing, for a statement whose step has no job to queue.
const noWrite: Write = (db) => db.deleteFrom('jobs').where(sql<boolean>`false`);

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
