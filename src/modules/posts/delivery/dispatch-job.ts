// `post.dispatch`: at scheduledFor a scheduled post becomes queued and its first target is
// released. The post row decides: a post deleted, published now, or sent back for approval in
// the meantime is left alone.
import type { AppDeps } from '../../../deps.ts';
import { defineJob } from '../../../jobs/catalog.ts';
import { lockPost } from '../repo.ts';
import { postDispatch } from './kinds.ts';
import { startDelivery } from './release.ts';

export function postDispatchJob(deps: Pick<AppDeps, 'store' | 'clock'>) {
  return defineJob(postDispatch, {
    timeoutMs: 30_000,
    async run({ postId }) {
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
