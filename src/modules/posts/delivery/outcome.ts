// Recording what one delivery step achieved, in one transaction with the post row locked: the
// target's new state, the next step's job (retry or processing check), the release of the next
// target after a first attempt, and, once every target has settled, the post's outcome and its
// event (published → post.published; failed or partial → post.failed).
import { exponentialBackoff } from '../../../jobs/backoff.ts';
import type { PostStatus, PostTargetRow, TargetStatus } from '../../../db/schema.ts';
import { emitEvent } from '../../events/emit.ts';
import { lockPost } from '../repo.ts';
import { DELIVERY_BACKOFF, MAX_TARGET_ATTEMPTS } from './kinds.ts';
import { queueTargetStep, releaseNextTarget, scheduleTarget, type TxContext } from './release.ts';

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

/** Returns the target's new status (pending: a retry is scheduled). */
export async function recordOutcome(ctx: TxContext, organizationId: string, target: Target, outcome: StepOutcome): Promise<TargetStatus> {
  const { db, now } = ctx;
  await lockPost(db, target.post_id, now);
  // After its first attempt a target releases the next one; the mark rides in its own update.
  const releasing = target.released_next === 0 ? { released_next: 1 as const } : {};
  let status: TargetStatus = 'publishing';
  switch (outcome.kind) {
    case 'published':
      status = 'published';
      await db
        .updateTable('post_targets')
        .set({ status, platform_post_id: outcome.platformPostId, url: outcome.url, error: null, published_at: now, next_attempt_at: null, updated_at: now, ...releasing })
        .where('id', '=', target.id)
        .execute();
      break;
    case 'processing':
      await scheduleTarget(ctx, target.id, now + outcome.checkAfterMs, releasing);
      break;
    case 'failed': {
      const delay = outcome.retryable ? retryDelay(target.attempts, outcome.retryAfterMs) : null;
      status = delay === null ? 'failed' : 'pending';
      await db
        .updateTable('post_targets')
        .set({ status, error: outcome.message, updated_at: now, ...(delay === null ? { next_attempt_at: null } : { next_attempt_at: now + delay }), ...releasing })
        .where('id', '=', target.id)
        .execute();
      if (delay !== null) await queueTargetStep(ctx, target.id, now + delay);
      break;
    }
    default: {
      const unreachable: never = outcome;
      throw new Error(`unknown outcome ${String(unreachable)}`);
    }
  }
  if (target.released_next === 0) await releaseNextTarget(ctx, target.post_id, target.position);
  if (status === 'published' || status === 'failed') await settlePost(ctx, organizationId, target.post_id);
  return status;
}

/** Once no target is pending or publishing, the post takes its outcome. */
async function settlePost(ctx: TxContext, organizationId: string, postId: string): Promise<void> {
  const targets = await ctx.db.selectFrom('post_targets').select('status').where('post_id', '=', postId).execute();
  if (targets.some((t) => t.status === 'pending' || t.status === 'publishing')) return;
  const published = targets.filter((t) => t.status === 'published').length;
  const status: PostStatus = published === targets.length ? 'published' : published === 0 ? 'failed' : 'partial';
  const changed = await ctx.db.updateTable('posts').set({ status, updated_at: ctx.now }).where('id', '=', postId).where('status', 'in', ['queued', 'publishing']).executeTakeFirst();
  if (changed.numUpdatedRows === 0n) return;
  await emitEvent(ctx, organizationId, status === 'published' ? 'post.published' : 'post.failed', { postId, status });
}
