// `post.dispatch`: at scheduledFor a scheduled post becomes queued and its first target is
// released. The post row decides: a post deleted, published now, or sent back for approval in
// the meantime is left alone.
import { Type } from 'typebox';
import type { AppDeps } from '../../../deps.ts';
import { defineJob } from '../../../jobs/catalog.ts';
import { lockPost } from '../repo.ts';
import { POST_DISPATCH, type DispatchPayload } from './kinds.ts';
import { startDelivery } from './release.ts';

export function postDispatchJob(deps: Pick<AppDeps, 'store' | 'clock'>) {
  return defineJob({
    ...POST_DISPATCH,
    payload: Type.Object({ postId: Type.String(), dueAt: Type.Number() }),
    timeoutMs: 30_000,
    async run({ postId }: DispatchPayload) {
      const now = deps.clock.now();
      await deps.store.db.transaction().execute(async (trx) => {
        const post = await lockPost(trx, postId, now);
        if (!post || post.status !== 'scheduled') return;
        await trx.updateTable('posts').set({ status: 'queued', updated_at: now }).where('id', '=', postId).execute();
        await startDelivery({ db: trx, store: deps.store, now }, postId);
      });
    },
  });
}
