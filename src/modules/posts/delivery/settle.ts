// Settling a post once none of its targets is open, under the post's lock, on either store: its
// status and its event (settlement.ts) in the transaction that read its targets.
import type { Store } from '../../../db/database.ts';
import type { TargetStatus } from '../../../db/schema.ts';
import { emitEvent } from '../../events/emit.ts';
import { lockPost } from '../repo.ts';
import type { TxContext } from './release.ts';
import { settlementOf } from './settlement.ts';
import { isOpen } from './target-change.ts';

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

/** The post takes its outcome from `statuses` (all its targets', none open), unless it was settled already. The caller holds the post's lock. */
export async function settlePost(ctx: TxContext, organizationId: string, postId: string, statuses: readonly TargetStatus[]): Promise<void> {
  const { status, type, data } = settlementOf(postId, statuses);
  const changed = await ctx.db.updateTable('posts').set({ status, updated_at: ctx.now }).where('id', '=', postId).where('status', 'in', ['queued', 'publishing']).executeTakeFirst();
  if (changed.numUpdatedRows === 0n) return;
  await emitEvent(ctx, organizationId, type, data);
}
