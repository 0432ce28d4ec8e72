// Approving and rejecting held posts: the one pair of service functions behind both the dashboard
// and the operator CLI (`socialapi posts approve|reject`). The CLI acts for any organization; the
// dashboard passes its session's organization, so another organization's post is not found.
// Who reviewed and when is kept on the post (reviewed_by, reviewed_at).
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { emitEvent } from '../events/emit.ts';
import type { CreateDeps } from './create.ts';
import { scheduleDispatch, startDelivery } from './delivery/release.ts';
import { lockPost } from './repo.ts';

export type ApprovalResult =
  | { ok: true; status: 'scheduled' | 'queued' | 'rejected' }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'not_pending'; status: string };

type Deps = Pick<CreateDeps, 'store' | 'clock'>;

export interface Review {
  /** Who decides: a dashboard user's email, `dashboard`, or `cli`. */
  reviewer: string;
  /** Limits the decision to this organization's posts (the dashboard's). */
  organizationId?: string;
}

async function held(trx: Kysely<Database>, postId: string, now: number, review: Review) {
  const post = await lockPost(trx, postId, now);
  if (!post || (review.organizationId !== undefined && post.organization_id !== review.organizationId)) return { error: { ok: false, reason: 'not_found' } as const };
  if (post.status !== 'pending_approval') return { error: { ok: false, reason: 'not_pending', status: post.status } as const };
  return { post };
}

/** Accepts a held post: scheduled when its time is still ahead, else queued now. */
export async function approvePost(deps: Deps, postId: string, review: Review): Promise<ApprovalResult> {
  const now = deps.clock.now();
  return deps.store.db.transaction().execute(async (trx): Promise<ApprovalResult> => {
    const { post, error } = await held(trx, postId, now, review);
    if (!post) return error;
    const scheduled = post.scheduled_for !== null && post.scheduled_for > now;
    const status = scheduled ? 'scheduled' : 'queued';
    await trx.updateTable('posts').set({ status, approved_at: now, rejected_reason: null, reviewed_by: review.reviewer, reviewed_at: now, updated_at: now }).where('id', '=', postId).execute();
    const ctx = { db: trx, store: deps.store, now };
    if (scheduled && post.scheduled_for !== null) await scheduleDispatch(ctx, postId, post.scheduled_for);
    else await startDelivery(ctx, postId);
    await emitEvent(ctx, post.organization_id, 'post.approved', { postId, status });
    return { ok: true, status };
  });
}

export async function rejectPost(deps: Deps, postId: string, reason: string | null, review: Review): Promise<ApprovalResult> {
  const now = deps.clock.now();
  return deps.store.db.transaction().execute(async (trx): Promise<ApprovalResult> => {
    const { post, error } = await held(trx, postId, now, review);
    if (!post) return error;
    await trx.updateTable('posts').set({ status: 'rejected', rejected_reason: reason, reviewed_by: review.reviewer, reviewed_at: now, updated_at: now }).where('id', '=', postId).execute();
    await emitEvent({ db: trx, store: deps.store, now }, post.organization_id, 'post.rejected', { postId, status: 'rejected' });
    return { ok: true, status: 'rejected' };
  });
}
