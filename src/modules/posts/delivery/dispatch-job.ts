// `post.dispatch`: at scheduledFor a scheduled post becomes queued and its first target is
// released. The post row decides: a post deleted, published now, or sent back for approval in
// the meantime is left alone.
import type { AppDeps } from '../../../deps.ts';
import { defineJob } from '../../../jobs/catalog.ts';
import { postDispatch } from './kinds.ts';
import { startDelivery } from './release.ts';

export function postDispatchJob(deps: Pick<AppDeps, 'store' | 'clock'>) {
  return defineJob(postDispatch, {
    timeoutMs: 30_000,
    async run({ postId }) {
      const now = deps.clock.now();
      await deps.store.db.transaction().execute(async (trx) => {
        // Locks the post and moves it on in one statement; one no longer scheduled is left alone.
        const queued = await trx.updateTable('posts').set({ status: 'queued', updated_at: now }).where('id', '=', postId).where('status', '=', 'scheduled').returning('id').executeTakeFirst();
        if (!queued) return;
        await startDelivery({ db: trx, store: deps.store, now }, postId);
      });
    },
  });
}
